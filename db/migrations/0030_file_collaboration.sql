-- What a viewer may do with a file by being named on it (lib/core/collaborators.ts): 'write', 'read'
-- or null, from the file's own collaborators and those of every folder above it (a folder's share
-- reaches what is in it, and stops reaching what leaves it). The walk up is bounded (FOLDER_REACH in
-- lib/core/collaborators.ts). Most viewers are nobody's collaborator: one index probe answers them.
-- PL/pgSQL keeps its plans for the session.
CREATE FUNCTION file_collaboration(target bigint, viewer int) RETURNS text LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
  IF viewer IS NULL OR NOT EXISTS (SELECT 1 FROM collaborators c WHERE c.user_id = viewer) THEN
    RETURN NULL;
  END IF;
  RETURN (
    WITH RECURSIVE up(id, owner_id, parent, depth) AS (
      SELECT f.id, f.owner_id, f.parent, 0 FROM files f WHERE f.id = target
      UNION ALL
      SELECT f.id, f.owner_id, f.parent, up.depth + 1 FROM up JOIN files f ON f.owner_id = up.owner_id AND f.n = up.parent
      WHERE up.parent <> -1 AND up.depth < 100
    )
    SELECT max(c.permission) FROM up JOIN collaborators c ON c.file_id = up.id AND c.user_id = viewer
  );
END $$;
