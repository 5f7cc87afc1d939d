CREATE TABLE "documents" (
	"file_id" bigint PRIMARY KEY NOT NULL,
	"content" text NOT NULL,
	"content_bytes" integer NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "files" DROP CONSTRAINT "files_filetype_check";--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "files_owner_documents_newest_idx" ON "files" USING btree ("owner_id","filetype","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "files"."filetype" IN ('dashboard', 'spectacle_presentation') AND "files"."trashed_at" IS NULL;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_filetype_check" CHECK ("files"."filetype" IN ('plot', 'grid', 'fold', 'dashboard', 'spectacle_presentation'));