CREATE TABLE "email_confirmations" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (6) with time zone NOT NULL,
	"used_at" timestamp (6) with time zone
);
--> statement-breakpoint
DROP INDEX "users_email_lower_key";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_confirmed_at" timestamp (6) with time zone;--> statement-breakpoint
-- Addresses already held keep holding them (they were unique until now): confirmed as of joining.
UPDATE "users" SET "email_confirmed_at" = "date_joined" WHERE "email" <> '';--> statement-breakpoint
ALTER TABLE "email_confirmations" ADD CONSTRAINT "email_confirmations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_confirmations_user_idx" ON "email_confirmations" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "users_email_unconfirmed_idx" ON "users" USING btree (lower("email")) WHERE "users"."email" <> '' AND "users"."email_confirmed_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email")) WHERE "users"."email" <> '' AND "users"."email_confirmed_at" IS NOT NULL;