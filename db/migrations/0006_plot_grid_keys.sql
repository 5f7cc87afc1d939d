-- The grids a plot's srcs name, as 'lower(owner):n' keys, so that a GIN index finds every plot on a
-- grid (a column changed: re-render those plots) without walking figures. src_refs holds
-- [{"p": path, "s": "owner:n:uid,..."}]; srcs are checked at write time, so the split is safe.
CREATE FUNCTION plot_grid_keys(refs jsonb) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT lower(split_part(r->>'s', ':', 1)) || ':' || split_part(r->>'s', ':', 2)), '{}')
  FROM jsonb_array_elements(refs) r
$$;
