CREATE TABLE "kept_columns" (
	"plot_id" bigint NOT NULL,
	"grid_key" text NOT NULL,
	"uid" text NOT NULL,
	"name" text NOT NULL,
	"values_id" bigint NOT NULL,
	"version" integer NOT NULL,
	"data" json,
	"bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "kept_columns_plot_id_grid_key_uid_pk" PRIMARY KEY("plot_id","grid_key","uid")
);
--> statement-breakpoint
ALTER TABLE "kept_columns" ADD CONSTRAINT "kept_columns_plot_id_files_id_fk" FOREIGN KEY ("plot_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kept_columns_values_idx" ON "kept_columns" USING btree ("values_id");--> statement-breakpoint
-- A figure's src refs (plots.src_refs) as the keys of the columns they name: lower(owner):n:uid.
CREATE OR REPLACE FUNCTION src_ref_keys(refs jsonb) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT lower(split_part(r->>'s', ':', 1)) || ':' || split_part(r->>'s', ':', 2) || ':' || u
  FROM jsonb_array_elements(refs) r CROSS JOIN unnest(string_to_array(split_part(r->>'s', ':', 3), ',')) u
$$;--> statement-breakpoint
-- The columns of its owner's grids that plot `plot` draws (`refs`), recorded as drawn by version `v`
-- (lib/core/files/kept-columns.ts): a row whose values were copied keeps them.
CREATE OR REPLACE FUNCTION record_kept_columns(plot bigint, refs jsonb, v int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO kept_columns (plot_id, grid_key, uid, name, values_id, version)
  SELECT plot, lower(u.username) || ':' || g.n, c.uid, c.name, c.values_id, v
  FROM files pf JOIN users u ON u.id = pf.owner_id
  CROSS JOIN LATERAL src_ref_keys(refs) k
  JOIN files g ON g.owner_id = u.id AND g.filetype = 'grid' AND lower(u.username) = split_part(k, ':', 1) AND g.n = split_part(k, ':', 2)::int
  JOIN grid_columns c ON c.grid_id = g.id AND c.uid = split_part(k, ':', 3)
  WHERE pf.id = plot
  ON CONFLICT (plot_id, grid_key, uid) DO UPDATE SET version = greatest(kept_columns.version, excluded.version), name = excluded.name,
    values_id = CASE WHEN kept_columns.data IS NULL THEN excluded.values_id ELSE kept_columns.values_id END;
END $$;--> statement-breakpoint
-- Each state of a plot records what it draws; the srcs a change leaves are drawn by versions up to the state it keeps.
CREATE OR REPLACE FUNCTION plots_keep_drawn() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v int := coalesce((SELECT version FROM file_saves WHERE file_id = NEW.file_id), 1);
BEGIN
  IF TG_OP = 'UPDATE' THEN
    UPDATE kept_columns SET version = v WHERE plot_id = NEW.file_id AND version < v AND grid_key || ':' || uid IN (SELECT src_ref_keys(OLD.src_refs));
  END IF;
  PERFORM record_kept_columns(NEW.file_id, NEW.src_refs, v);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER plots_keep_drawn AFTER UPDATE OF src_refs ON plots FOR EACH ROW EXECUTE FUNCTION plots_keep_drawn();--> statement-breakpoint
-- New plots, a statement's at once (a bulk insert of thousands is one join, not a function call each).
CREATE OR REPLACE FUNCTION plots_keep_drawn_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO kept_columns (plot_id, grid_key, uid, name, values_id, version)
  SELECT n.file_id, lower(u.username) || ':' || g.n, c.uid, c.name, c.values_id, coalesce(s.version, 1)
  FROM new_plots n
  LEFT JOIN file_saves s ON s.file_id = n.file_id
  JOIN files pf ON pf.id = n.file_id JOIN users u ON u.id = pf.owner_id
  CROSS JOIN LATERAL src_ref_keys(n.src_refs) k
  JOIN files g ON g.owner_id = u.id AND g.filetype = 'grid' AND lower(u.username) = split_part(k, ':', 1) AND g.n = split_part(k, ':', 2)::int
  JOIN grid_columns c ON c.grid_id = g.id AND c.uid = split_part(k, ':', 3)
  WHERE n.src_refs <> '[]'::jsonb
  ON CONFLICT (plot_id, grid_key, uid) DO UPDATE SET version = greatest(kept_columns.version, excluded.version), name = excluded.name,
    values_id = CASE WHEN kept_columns.data IS NULL THEN excluded.values_id ELSE kept_columns.values_id END;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER plots_keep_drawn_inserted AFTER INSERT ON plots REFERENCING NEW TABLE AS new_plots FOR EACH STATEMENT EXECUTE FUNCTION plots_keep_drawn_inserted();--> statement-breakpoint
-- Column values a plot's state draws, as they go: a live column of the same grid and uid holding
-- newer values is what the plot draws now (pointed to); otherwise they are copied into kept_columns
-- and counted in the plot's kept bytes. A grid deleted for good is gone first (its columns too).
CREATE OR REPLACE FUNCTION keep_drawn_values() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE kept_columns k SET values_id = c.values_id FROM grid_columns c
  WHERE k.values_id = OLD.id AND k.data IS NULL AND c.grid_id = OLD.grid_id AND c.uid = k.uid AND c.values_id <> OLD.id
    AND EXISTS (SELECT 1 FROM files f WHERE f.id = OLD.grid_id);
  WITH k AS (UPDATE kept_columns SET data = OLD.data, bytes = OLD.bytes WHERE values_id = OLD.id AND data IS NULL RETURNING plot_id)
  UPDATE file_saves s SET kept_bytes = s.kept_bytes + OLD.bytes * (SELECT count(*) FROM k WHERE k.plot_id = s.file_id)
  WHERE s.file_id IN (SELECT plot_id FROM k);
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER column_values_keep_drawn BEFORE DELETE ON column_values FOR EACH ROW EXECUTE FUNCTION keep_drawn_values();--> statement-breakpoint
-- The plots there are now record what they draw.
SELECT record_kept_columns(p.file_id, p.src_refs, coalesce(s.version, 1)) FROM plots p LEFT JOIN file_saves s ON s.file_id = p.file_id;
