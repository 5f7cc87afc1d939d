-- What serving a plot's data costs is its columns' bytes, not their count: a cell may be a long
-- string. Each column records its stored text's size, and each plot the sum over its references.
ALTER TABLE "grid_columns" ADD COLUMN "bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "plots" ADD COLUMN "data_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "grid_columns" SET "bytes" = octet_length("data"::text);--> statement-breakpoint
UPDATE "plots" p SET "data_bytes" = (
  SELECT coalesce(sum(g.bytes), 0) FROM jsonb_array_elements(p.src_refs) r
  CROSS JOIN LATERAL unnest(string_to_array(split_part(r->>'s', ':', 3), ',')) AS u(uid)
  JOIN users ou ON lower(ou.username) = lower(split_part(r->>'s', ':', 1))
  JOIN files gf ON gf.owner_id = ou.id AND gf.n = split_part(r->>'s', ':', 2)::int AND gf.filetype = 'grid' AND gf.trashed_at IS NULL
  JOIN grid_columns g ON g.grid_id = gf.id AND g.uid = u.uid)
WHERE jsonb_array_length(p.src_refs) > 0;
