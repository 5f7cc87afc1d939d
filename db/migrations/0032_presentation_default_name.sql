-- create_file (migration 0017) with a presentation's default name 'presentation 7' (not its
-- filetype's 'spectacle_presentation 7'); the rest as 0017 has it.
CREATE OR REPLACE FUNCTION create_file(in_owner integer, in_kind text, in_name text, in_parent integer, in_readable boolean, in_key text)
RETURNS SETOF files LANGUAGE plpgsql ROWS 1 AS $$
DECLARE
  next_n integer;
  candidate text;
  created files;
  stem text := CASE in_kind WHEN 'fold' THEN 'folder' WHEN 'spectacle_presentation' THEN 'presentation' ELSE in_kind END;
BEGIN
  PERFORM pg_advisory_xact_lock(20120, in_owner);
  UPDATE users SET file_counter = file_counter + 1 WHERE id = in_owner RETURNING file_counter INTO next_n;
  FOR attempt IN 0 .. CASE WHEN in_name IS NULL THEN 5 ELSE 0 END LOOP
    candidate := coalesce(in_name, stem || ' ' || next_n || CASE WHEN attempt > 0 THEN ' (' || substr(md5(random()::text), 1, 6) || ')' ELSE '' END);
    INSERT INTO files (owner_id, n, filetype, filename, parent, world_readable, share_key)
      VALUES (in_owner, next_n, in_kind, candidate, in_parent, in_readable, in_key)
      ON CONFLICT DO NOTHING RETURNING * INTO created;
    IF created.id IS NOT NULL THEN
      RETURN NEXT created;
      RETURN;
    END IF;
  END LOOP;
  RAISE EXCEPTION USING ERRCODE = 'PF409', MESSAGE = coalesce(in_name, stem || ' ' || next_n);
END $$;
