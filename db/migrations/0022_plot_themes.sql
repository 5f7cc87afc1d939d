-- Plots made before themes and templates existed are neither (the record said null).
UPDATE "plots" SET "is_theme" = false WHERE "is_theme" IS NULL;--> statement-breakpoint
UPDATE "plots" SET "is_template" = false WHERE "is_template" IS NULL;--> statement-breakpoint
ALTER TABLE "plots" ALTER COLUMN "is_theme" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "plots" ALTER COLUMN "is_theme" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "plots" ALTER COLUMN "is_template" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "plots" ALTER COLUMN "is_template" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "plots" ADD COLUMN "template_roles" jsonb;
