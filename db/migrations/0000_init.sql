CREATE TABLE "files" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"n" integer NOT NULL,
	"filetype" text NOT NULL,
	"filename" text NOT NULL,
	"parent" integer DEFAULT -1 NOT NULL,
	"world_readable" boolean DEFAULT true NOT NULL,
	"share_key" text,
	"trashed_at" timestamp (6) with time zone,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "files_filetype_check" CHECK ("files"."filetype" IN ('plot', 'grid', 'fold'))
);
--> statement-breakpoint
CREATE TABLE "grid_columns" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"grid_id" bigint NOT NULL,
	"uid" text NOT NULL,
	"name" text NOT NULL,
	"ord" integer NOT NULL,
	"data" json NOT NULL,
	"length" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plots" (
	"file_id" bigint PRIMARY KEY NOT NULL,
	"figure" jsonb NOT NULL,
	"src_refs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"caption" text DEFAULT '' NOT NULL,
	"views" bigint DEFAULT 0 NOT NULL,
	"quality" smallint DEFAULT 0 NOT NULL,
	"handpicked" boolean DEFAULT false NOT NULL,
	"source_fid" text,
	"is_theme" boolean,
	"is_template" boolean,
	"width" integer,
	"height" integer,
	"autosize" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"listed" boolean DEFAULT false NOT NULL,
	CONSTRAINT "plots_quality_check" CHECK ("plots"."quality" BETWEEN 0 AND 10),
	CONSTRAINT "plots_views_check" CHECK ("plots"."views" >= 0)
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"api_key_hash" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"nickname" text DEFAULT '' NOT NULL,
	"bio" text DEFAULT '' NOT NULL,
	"website" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"file_counter" integer DEFAULT 0 NOT NULL,
	"date_joined" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grid_columns" ADD CONSTRAINT "grid_columns_grid_id_files_id_fk" FOREIGN KEY ("grid_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plots" ADD CONSTRAINT "plots_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "files_owner_n_key" ON "files" USING btree ("owner_id","n");--> statement-breakpoint
CREATE UNIQUE INDEX "files_live_filename_key" ON "files" USING btree ("owner_id","parent","filename") WHERE "files"."trashed_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "grid_columns_grid_uid_key" ON "grid_columns" USING btree ("grid_id","uid");--> statement-breakpoint
CREATE INDEX "grid_columns_grid_ord_idx" ON "grid_columns" USING btree ("grid_id","ord");--> statement-breakpoint
CREATE INDEX "plots_listed_newest_idx" ON "plots" USING btree ("created_at" DESC NULLS FIRST,"file_id" DESC NULLS FIRST) WHERE "plots"."listed";--> statement-breakpoint
CREATE INDEX "plots_listed_views_desc_idx" ON "plots" USING btree ("views" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"file_id" DESC NULLS FIRST) WHERE "plots"."listed";--> statement-breakpoint
CREATE INDEX "plots_listed_views_asc_idx" ON "plots" USING btree ("views","created_at" DESC NULLS FIRST,"file_id" DESC NULLS FIRST) WHERE "plots"."listed";--> statement-breakpoint
CREATE INDEX "plots_feed_idx" ON "plots" USING btree ("file_id") WHERE "plots"."listed" AND "plots"."handpicked";--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_key" ON "users" USING btree (lower("username"));