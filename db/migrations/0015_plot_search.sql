-- Search (lib/core/search.ts): plots.search holds the words a plot is found by, weighted A its title,
-- B its filename and its owner's username and nickname, C its caption, and a `type:<name>` lexeme
-- (no position, so it filters without ranking) for each trace type of its figure (scatter when a
-- trace names none). The 'simple' configuration: no stemming and no stop words, because much of what
-- is searched is names (owners, filenames, trace types) and titles in any language, which English
-- stemming would mangle ("Jones" -> "jone"). Triggers keep it current whatever path writes plots,
-- files or users.
ALTER TABLE "plots" ADD COLUMN "search" "tsvector" DEFAULT ''::tsvector NOT NULL;--> statement-breakpoint
-- Filenames and usernames are taken whole and split at _ . - / so that "gdp_per-capita.csv" is found by
-- itself, "gdp" and "capita"; invalid type names (never from a checked figure) are left out. PL/pgSQL
-- and one statement: its plan is cached, where an SQL function called from a trigger is planned
-- again on every row (bulk inserts took 20x longer).
CREATE FUNCTION plot_search_doc(in_file_id bigint, in_title text, in_caption text, in_figure jsonb) RETURNS tsvector LANGUAGE plpgsql STABLE AS $$
DECLARE
  doc tsvector;
BEGIN
  SELECT setweight(to_tsvector('simple', in_title), 'A')
      || setweight(to_tsvector('simple', concat_ws(' ', f.filename, regexp_replace(f.filename, '[-_./]+', ' ', 'g'),
                                            u.username, regexp_replace(u.username, '[-_./]+', ' ', 'g'), u.nickname)), 'B')
      || setweight(to_tsvector('simple', in_caption), 'C')
      || array_to_tsvector(ARRAY(
           SELECT DISTINCT 'type:' || CASE WHEN jsonb_typeof(e->'type') = 'string' AND e->>'type' <> '' THEN lower(e->>'type') ELSE 'scatter' END
           FROM jsonb_array_elements(CASE WHEN jsonb_typeof(in_figure->'data') = 'array' THEN in_figure->'data' ELSE '[]'::jsonb END) e
           WHERE jsonb_typeof(e->'type') IS DISTINCT FROM 'string' OR e->>'type' ~* '^[a-z0-9_]{0,40}$'))
    INTO doc
    FROM files f JOIN users u ON u.id = f.owner_id WHERE f.id = in_file_id;
  RETURN doc;
END $$;
--> statement-breakpoint
CREATE FUNCTION plots_set_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search := coalesce(plot_search_doc(NEW.file_id, NEW.title, NEW.caption, NEW.figure), ''::tsvector);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER plots_set_search BEFORE INSERT OR UPDATE OF title, caption, figure ON plots
  FOR EACH ROW EXECUTE FUNCTION plots_set_search();
--> statement-breakpoint
CREATE FUNCTION files_sync_plot_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE plots p SET search = plot_search_doc(p.file_id, p.title, p.caption, p.figure) WHERE p.file_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER files_sync_plot_search AFTER UPDATE OF filename ON files
  FOR EACH ROW WHEN (NEW.filetype = 'plot' AND OLD.filename IS DISTINCT FROM NEW.filename) EXECUTE FUNCTION files_sync_plot_search();
--> statement-breakpoint
CREATE FUNCTION users_sync_plot_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE plots p SET search = plot_search_doc(p.file_id, p.title, p.caption, p.figure)
    FROM files f WHERE f.id = p.file_id AND f.owner_id = NEW.id AND f.filetype = 'plot';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_sync_plot_search AFTER UPDATE OF username, nickname ON users
  FOR EACH ROW WHEN (OLD.username IS DISTINCT FROM NEW.username OR OLD.nickname IS DISTINCT FROM NEW.nickname)
  EXECUTE FUNCTION users_sync_plot_search();
--> statement-breakpoint
UPDATE plots SET search = coalesce(plot_search_doc(file_id, title, caption, figure), ''::tsvector);
--> statement-breakpoint
CREATE INDEX "plots_search_idx" ON "plots" USING gin ("search");
