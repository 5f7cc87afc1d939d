-- Search finds dashboards and presentations by the words of their filename (lib/core/document-cards.ts
-- searchDocuments), the way plot_search_doc (migration 0015) takes a plot's: whole and split at
-- _ . - /, in the 'simple' configuration. An expression index on files, so no trigger has to keep a
-- copy current: a rename is the index's own update. The function is the one place the rule lives:
-- the index and the query both call it, which is what lets the query use the index.
CREATE FUNCTION document_search_doc(filename text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_tsvector('simple'::regconfig, filename || ' ' || regexp_replace(filename, '[-_./]+', ' ', 'g'))
$$;
--> statement-breakpoint
CREATE INDEX "files_documents_search_idx" ON "files" USING gin (document_search_doc("filename"))
  WHERE "filetype" IN ('dashboard', 'spectacle_presentation') AND "trashed_at" IS NULL;
