CREATE TABLE "comments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"file_id" bigint NOT NULL,
	"author_id" integer NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stars" (
	"user_id" integer NOT NULL,
	"file_id" bigint NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stars_user_id_file_id_pk" PRIMARY KEY("user_id","file_id")
);
--> statement-breakpoint
ALTER TABLE "plots" ADD COLUMN "stars" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "plots" ADD COLUMN "comment_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "plots" ADD COLUMN "comments_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stars" ADD CONSTRAINT "stars_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stars" ADD CONSTRAINT "stars_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comments_file_newest_idx" ON "comments" USING btree ("file_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "stars_file_newest_idx" ON "stars" USING btree ("file_id","created_at" DESC NULLS LAST,"user_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "stars_user_newest_idx" ON "stars" USING btree ("user_id","created_at" DESC NULLS LAST,"file_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "plots_listed_stars_desc_idx" ON "plots" USING btree ("stars" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"file_id" DESC NULLS FIRST) WHERE "plots"."listed";--> statement-breakpoint
CREATE INDEX "plots_listed_stars_asc_idx" ON "plots" USING btree ("stars","created_at" DESC NULLS FIRST,"file_id" DESC NULLS FIRST) WHERE "plots"."listed";--> statement-breakpoint
ALTER TABLE "plots" ADD CONSTRAINT "plots_stars_check" CHECK ("plots"."stars" >= 0);