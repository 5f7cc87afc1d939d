ALTER TABLE "plots" ADD COLUMN "figure_bytes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "plots" SET "figure_bytes" = octet_length("figure"::text);
