ALTER TABLE "files" ADD COLUMN "metadata" jsonb;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "trashed_with" bigint;--> statement-breakpoint
CREATE INDEX "plots_grid_keys_idx" ON "plots" USING gin (plot_grid_keys("src_refs"));