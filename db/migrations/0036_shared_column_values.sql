-- History costs only what changed (issue 35): column values move to column_values, which the live
-- grid_columns and the kept grid_version_columns point to, so a save that leaves a column's values as
-- they were shares them; a plot version whose figure is the next state's keeps none (figure null).
-- Existing histories are shared the same way: a kept column equal to the live one (or to another kept
-- one of its grid and uid) points to the same values.
CREATE TABLE "column_values" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"grid_id" bigint NOT NULL,
	"data" json NOT NULL,
	"length" integer NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"preview" json
);
--> statement-breakpoint
ALTER TABLE "column_values" ADD CONSTRAINT "column_values_grid_id_files_id_fk" FOREIGN KEY ("grid_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "column_values_grid_idx" ON "column_values" USING btree ("grid_id");--> statement-breakpoint
-- As grid_columns.data was (0021): lz4 where the build has it.
DO $$
BEGIN
  ALTER TABLE column_values ALTER COLUMN data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available: column_values.data keeps the default compression';
END $$;
--> statement-breakpoint
ALTER TABLE "grid_columns" ADD COLUMN "values_id" bigint;--> statement-breakpoint
ALTER TABLE "grid_version_columns" ADD COLUMN "values_id" bigint;--> statement-breakpoint
ALTER TABLE "grid_version_columns" ADD COLUMN "digest" text;--> statement-breakpoint
-- Every live column's values, one row each.
WITH c AS MATERIALIZED (SELECT id, nextval(pg_get_serial_sequence('column_values', 'id')) AS vid FROM grid_columns),
  ins AS (INSERT INTO column_values (id, grid_id, data, length, bytes, preview)
    SELECT c.vid, g.grid_id, g.data, g.length, g.bytes, g.preview FROM c JOIN grid_columns g ON g.id = c.id)
UPDATE grid_columns g SET values_id = c.vid FROM c WHERE g.id = c.id;--> statement-breakpoint
UPDATE grid_version_columns SET digest = md5(data::text);--> statement-breakpoint
-- Kept columns equal to the live column of their uid share its values.
UPDATE grid_version_columns v SET values_id = l.values_id
  FROM (SELECT g.grid_id, g.uid, g.values_id, md5(cv.data::text) AS digest FROM grid_columns g JOIN column_values cv ON cv.id = g.values_id) l
  WHERE l.grid_id = v.file_id AND l.uid = v.uid AND l.digest = v.digest;--> statement-breakpoint
-- The others: one row for each grid, uid and content.
WITH d AS MATERIALIZED (
    SELECT nextval(pg_get_serial_sequence('column_values', 'id')) AS vid, d.* FROM (
      SELECT DISTINCT ON (file_id, uid, digest) file_id, uid, digest, version FROM grid_version_columns
      WHERE values_id IS NULL ORDER BY file_id, uid, digest, version) d),
  ins AS (INSERT INTO column_values (id, grid_id, data, length, bytes, preview)
    SELECT d.vid, v.file_id, v.data, v.length, v.bytes, v.preview FROM d
    JOIN grid_version_columns v ON v.file_id = d.file_id AND v.version = d.version AND v.uid = d.uid)
UPDATE grid_version_columns v SET values_id = d.vid FROM d
  WHERE v.values_id IS NULL AND v.file_id = d.file_id AND v.uid = d.uid AND v.digest = d.digest;--> statement-breakpoint
ALTER TABLE "grid_columns" ALTER COLUMN "values_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "grid_version_columns" ALTER COLUMN "values_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "grid_columns" DROP COLUMN "data";--> statement-breakpoint
ALTER TABLE "grid_version_columns" DROP COLUMN "data";--> statement-breakpoint
ALTER TABLE "grid_version_columns" DROP COLUMN "length";--> statement-breakpoint
ALTER TABLE "grid_version_columns" DROP COLUMN "bytes";--> statement-breakpoint
ALTER TABLE "grid_version_columns" DROP COLUMN "preview";--> statement-breakpoint
ALTER TABLE "grid_version_columns" DROP COLUMN "digest";--> statement-breakpoint
-- A kept grid version's bytes: the values it is the newest state to hold (lib/core/versions.ts).
-- Plus what its own rows of names cost (as versions.ts counts them).
UPDATE grid_versions g SET bytes = coalesce(a.bytes, 0) + coalesce(m.bytes, 0)
  FROM grid_versions k
  LEFT JOIN (SELECT file_id, version, sum(octet_length(name) + octet_length(uid) + 40) AS bytes FROM grid_version_columns GROUP BY file_id, version) m
    ON m.file_id = k.file_id AND m.version = k.version
  LEFT JOIN (
    SELECT r.file_id, r.newest, sum(cv.bytes) AS bytes
    FROM (SELECT file_id, values_id, max(version) AS newest FROM grid_version_columns GROUP BY file_id, values_id) r
    JOIN column_values cv ON cv.id = r.values_id
    WHERE NOT EXISTS (SELECT 1 FROM grid_columns c WHERE c.values_id = r.values_id)
    GROUP BY r.file_id, r.newest) a ON a.file_id = k.file_id AND a.newest = k.version
  WHERE g.file_id = k.file_id AND g.version = k.version;--> statement-breakpoint
-- A kept plot version whose figure is the next state's (the next kept version, or the live plot when
-- it is the version before the current one) keeps none: its bytes are its title's.
ALTER TABLE "plot_versions" ALTER COLUMN "figure" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "file_saves" ADD COLUMN "kept_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE plot_versions v SET figure = NULL, bytes = octet_length(v.title)
  FROM (
    SELECT k.file_id, k.version FROM plot_versions k
    LEFT JOIN plot_versions n ON n.file_id = k.file_id AND n.version = k.version + 1
    LEFT JOIN file_saves s ON s.file_id = k.file_id AND s.version = k.version + 1
    LEFT JOIN plots p ON p.file_id = s.file_id
    WHERE coalesce(n.figure, p.figure) = k.figure) same
  WHERE v.file_id = same.file_id AND v.version = same.version;--> statement-breakpoint
-- Each file's kept history, summed: the per-person bound reads these.
UPDATE file_saves s SET kept_bytes = k.bytes
  FROM (SELECT file_id, sum(bytes) AS bytes FROM plot_versions GROUP BY file_id
        UNION ALL SELECT file_id, sum(bytes) FROM grid_versions GROUP BY file_id) k
  WHERE k.file_id = s.file_id;
