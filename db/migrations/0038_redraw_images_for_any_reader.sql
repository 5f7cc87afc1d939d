-- Images are drawn for any reader of a plot now (lib/core/srcs.ts plotSrcReader), no longer with every
-- grid its owner may read: a plot that drew a grid of someone else's that is not public (shared with
-- its owner by name) moves to a new version, so its stored images are drawn again without that data
-- the next time they are asked for.
UPDATE plots SET version = version + 1
WHERE file_id IN (
  SELECT DISTINCT p.file_id
  FROM plots p
  JOIN files f ON f.id = p.file_id
  CROSS JOIN LATERAL unnest(plot_grid_keys(p.src_refs)) AS k(key)
  JOIN users u ON lower(u.username) = split_part(k.key, ':', 1)
  JOIN files g ON g.owner_id = u.id AND g.n = split_part(k.key, ':', 2)::int AND g.filetype = 'grid'
  WHERE g.owner_id <> f.owner_id AND NOT g.world_readable
);
