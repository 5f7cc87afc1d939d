CREATE TABLE "collaborators" (
	"file_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"permission" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collaborators_file_id_user_id_pk" PRIMARY KEY("file_id","user_id"),
	CONSTRAINT "collaborators_permission_check" CHECK ("collaborators"."permission" IN ('read', 'write'))
);
--> statement-breakpoint
ALTER TABLE "collaborators" ADD CONSTRAINT "collaborators_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collaborators" ADD CONSTRAINT "collaborators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collaborators_user_idx" ON "collaborators" USING btree ("user_id","created_at" DESC NULLS LAST,"file_id" DESC NULLS LAST);