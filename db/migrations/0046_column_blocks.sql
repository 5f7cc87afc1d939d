CREATE TABLE "column_blocks" (
	"values_id" bigint NOT NULL,
	"block" integer NOT NULL,
	"min" double precision,
	"min_row" integer,
	"max" double precision,
	"max_row" integer,
	"stretches" "bytea" NOT NULL,
	"raw" "bytea" NOT NULL,
	CONSTRAINT "column_blocks_values_id_block_pk" PRIMARY KEY("values_id","block")
);
--> statement-breakpoint
ALTER TABLE "column_values" ADD COLUMN "kind" text;--> statement-breakpoint
ALTER TABLE "column_values" ADD COLUMN "sorted" boolean;--> statement-breakpoint
ALTER TABLE "column_blocks" ADD CONSTRAINT "column_blocks_values_id_column_values_id_fk" FOREIGN KEY ("values_id") REFERENCES "public"."column_values"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Blocks are float64s, which compress poorly: stored out of line uncompressed, so writes skip the attempt.
ALTER TABLE "column_blocks" ALTER COLUMN "raw" SET STORAGE EXTERNAL;--> statement-breakpoint
ALTER TABLE "column_blocks" ALTER COLUMN "stretches" SET STORAGE EXTERNAL;--> statement-breakpoint
ALTER TABLE "column_values" ADD CONSTRAINT "column_values_kind_check" CHECK ("kind" IN ('number', 'date'));
