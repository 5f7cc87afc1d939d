-- Column values are stored compressed: lz4 compresses several times faster than the default pglz, so
-- storing a large grid costs far less (BENCHMARKS.md, data import), for a slightly larger table.
-- Builds without lz4 (the embedded PGlite) keep pglz. Existing values keep their compression until rewritten.
DO $$
BEGIN
  ALTER TABLE grid_columns ALTER COLUMN data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available: grid_columns.data keeps the default compression';
END $$;
