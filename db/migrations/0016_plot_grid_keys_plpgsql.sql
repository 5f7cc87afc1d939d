-- plot_grid_keys (migration 0006) in PL/pgSQL, with the same result. Postgres cannot inline an SQL
-- function that has a FROM, so as an SQL function it was parsed and planned again on every call:
-- every insert of a plot (the index plots_grid_keys_idx evaluates it) paid for that. PL/pgSQL keeps
-- the plan for the session. The index stays valid: its values do not change.
CREATE OR REPLACE FUNCTION plot_grid_keys(refs jsonb) RETURNS text[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN (SELECT coalesce(array_agg(DISTINCT lower(split_part(r->>'s', ':', 1)) || ':' || split_part(r->>'s', ':', 2)), '{}')
          FROM jsonb_array_elements(refs) r);
END $$;
