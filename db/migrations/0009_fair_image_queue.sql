DROP INDEX "image_jobs_ready_idx";--> statement-breakpoint
ALTER TABLE "image_jobs" ADD COLUMN "owner_id" integer;--> statement-breakpoint
UPDATE "image_jobs" j SET "owner_id" = f."owner_id" FROM "files" f WHERE f."id" = j."file_id";--> statement-breakpoint
ALTER TABLE "image_jobs" ALTER COLUMN "owner_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "image_jobs" ADD COLUMN "turn" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "image_jobs_turn_idx" ON "image_jobs" USING btree ("turn","created_at","file_id");--> statement-breakpoint
CREATE INDEX "image_jobs_owner_idx" ON "image_jobs" USING btree ("owner_id");
