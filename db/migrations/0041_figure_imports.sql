CREATE TABLE "figure_imports" (
	"plot_id" bigint PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"content_key" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "figure_imports" ADD CONSTRAINT "figure_imports_plot_id_files_id_fk" FOREIGN KEY ("plot_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "figure_imports" ADD CONSTRAINT "figure_imports_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "figure_imports_owner_key_idx" ON "figure_imports" USING btree ("owner_id","content_key");