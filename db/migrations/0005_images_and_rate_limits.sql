CREATE TABLE "image_jobs" (
	"file_id" bigint PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"run_after" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp (6) with time zone,
	"last_error" text,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plot_images" (
	"file_id" bigint NOT NULL,
	"version" integer NOT NULL,
	"size" text NOT NULL,
	"png" "bytea" NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plot_images_file_id_version_size_pk" PRIMARY KEY("file_id","version","size")
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp (6) with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "image_jobs" ADD CONSTRAINT "image_jobs_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plot_images" ADD CONSTRAINT "plot_images_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "image_jobs_ready_idx" ON "image_jobs" USING btree ("run_after","file_id");