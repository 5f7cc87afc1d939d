CREATE TABLE "file_saves" (
	"file_id" bigint PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"author_id" integer,
	"client" text,
	"saved_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grid_version_columns" (
	"file_id" bigint NOT NULL,
	"version" integer NOT NULL,
	"uid" text NOT NULL,
	"name" text NOT NULL,
	"ord" integer NOT NULL,
	"data" json NOT NULL,
	"length" integer NOT NULL,
	"bytes" bigint NOT NULL,
	"preview" json,
	CONSTRAINT "grid_version_columns_file_id_version_uid_pk" PRIMARY KEY("file_id","version","uid")
);
--> statement-breakpoint
CREATE TABLE "grid_versions" (
	"file_id" bigint NOT NULL,
	"version" integer NOT NULL,
	"author_id" integer,
	"client" text,
	"saved_at" timestamp (6) with time zone NOT NULL,
	"bytes" bigint NOT NULL,
	CONSTRAINT "grid_versions_file_id_version_pk" PRIMARY KEY("file_id","version")
);
--> statement-breakpoint
CREATE TABLE "plot_versions" (
	"file_id" bigint NOT NULL,
	"version" integer NOT NULL,
	"figure" jsonb NOT NULL,
	"title" text NOT NULL,
	"title_given" boolean NOT NULL,
	"author_id" integer,
	"client" text,
	"saved_at" timestamp (6) with time zone NOT NULL,
	"bytes" integer NOT NULL,
	CONSTRAINT "plot_versions_file_id_version_pk" PRIMARY KEY("file_id","version")
);
--> statement-breakpoint
ALTER TABLE "file_saves" ADD CONSTRAINT "file_saves_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_saves" ADD CONSTRAINT "file_saves_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grid_version_columns" ADD CONSTRAINT "grid_version_columns_file_id_version_grid_versions_file_id_version_fk" FOREIGN KEY ("file_id","version") REFERENCES "public"."grid_versions"("file_id","version") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grid_versions" ADD CONSTRAINT "grid_versions_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grid_versions" ADD CONSTRAINT "grid_versions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plot_versions" ADD CONSTRAINT "plot_versions_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plot_versions" ADD CONSTRAINT "plot_versions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;