CREATE TABLE "leases" (
	"key" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp (6) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "grid_columns" ADD COLUMN "preview" json;--> statement-breakpoint
UPDATE "grid_columns" SET "preview" = (
  SELECT coalesce(json_agg(v ORDER BY i), '[]'::json)
  FROM json_array_elements(CASE WHEN json_typeof("data") = 'array' THEN "data" ELSE json_build_array("data") END) WITH ORDINALITY AS e(v, i)
  WHERE i <= 20);
