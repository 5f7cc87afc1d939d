-- A trace's type, one rule for every statement that reads it and for the search index: the `type` a
-- trace names when that is a non-empty string (trace_named_type; null otherwise), else plotly's default,
-- scatter (trace_type). lib/core/trace-types.ts is the TypeScript twin, and tests/lib/trace-types.test.ts
-- holds the two to one table of cases. Plain SQL expressions, so the planner inlines them: a statement
-- calling them runs as if it spelled the expression out.
CREATE FUNCTION trace_named_type(trace jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN jsonb_typeof(trace->'type') = 'string' AND trace->>'type' <> '' THEN trace->>'type' END
$$;
--> statement-breakpoint
CREATE FUNCTION trace_type(trace jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(trace_named_type(trace), 'scatter')
$$;
--> statement-breakpoint
-- Migration 0015's search document, its `type:` lexemes now from trace_type: the same lexemes as
-- before (an invalid type name, never from a checked figure, is still left out; lib/core/search.ts's
-- typeFilter is the query's side of that rule), so no stored document changes.
CREATE OR REPLACE FUNCTION plot_search_doc(in_file_id bigint, in_title text, in_caption text, in_figure jsonb) RETURNS tsvector LANGUAGE plpgsql STABLE AS $$
DECLARE
  doc tsvector;
BEGIN
  SELECT setweight(to_tsvector('simple', in_title), 'A')
      || setweight(to_tsvector('simple', concat_ws(' ', f.filename, regexp_replace(f.filename, '[-_./]+', ' ', 'g'),
                                            u.username, regexp_replace(u.username, '[-_./]+', ' ', 'g'), u.nickname)), 'B')
      || setweight(to_tsvector('simple', in_caption), 'C')
      || array_to_tsvector(ARRAY(
           SELECT DISTINCT 'type:' || lower(trace_type(e))
           FROM jsonb_array_elements(CASE WHEN jsonb_typeof(in_figure->'data') = 'array' THEN in_figure->'data' ELSE '[]'::jsonb END) e
           WHERE trace_type(e) ~* '^[a-z0-9_]{1,40}$'))
    INTO doc
    FROM files f JOIN users u ON u.id = f.owner_id WHERE f.id = in_file_id;
  RETURN doc;
END $$;
