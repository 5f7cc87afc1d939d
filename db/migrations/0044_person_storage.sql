ALTER TABLE "users" ADD COLUMN "stored_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "stored_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- What one person stores, bounded (docs/limits.md): each file's live bytes (its grid columns' values
-- as served, a plot's figure, a dashboard's or presentation's content, a grid's metadata) in
-- files.stored_bytes, summed per owner in users.stored_bytes, trash included. Kept history is not
-- counted here (it has its own per-person bound). Existing rows first, then the triggers.
UPDATE files f SET stored_bytes = coalesce(octet_length(f.metadata::text), 0)
  + coalesce((SELECT sum(c.bytes) FROM grid_columns c WHERE c.grid_id = f.id), 0)
  + coalesce((SELECT p.figure_bytes FROM plots p WHERE p.file_id = f.id), 0)
  + coalesce((SELECT d.content_bytes FROM documents d WHERE d.file_id = f.id), 0);--> statement-breakpoint
UPDATE users u SET stored_bytes = s.bytes FROM (SELECT owner_id, sum(stored_bytes) AS bytes FROM files GROUP BY owner_id) s WHERE s.owner_id = u.id;--> statement-breakpoint
-- A statement's rows (transition tables new_rows, old_rows) add their bytes (column TG_ARGV[2]) to
-- the stored_bytes of the rows of table TG_ARGV[0] they name (column TG_ARGV[1]): one update a
-- statement, whatever its number of rows (a grid's columns, a trash emptied). Rows whose file went
-- first (a cascade) name none: the file's delete took its bytes.
CREATE OR REPLACE FUNCTION count_stored_bytes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  src text := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT %1$I AS id, %2$I AS bytes FROM new_rows', TG_ARGV[1], TG_ARGV[2])
    WHEN 'DELETE' THEN format('SELECT %1$I AS id, -%2$I AS bytes FROM old_rows', TG_ARGV[1], TG_ARGV[2])
    ELSE format('SELECT %1$I AS id, %2$I AS bytes FROM new_rows UNION ALL SELECT %1$I, -%2$I FROM old_rows', TG_ARGV[1], TG_ARGV[2]) END;
BEGIN
  EXECUTE format('UPDATE %1$I t SET stored_bytes = t.stored_bytes + d.bytes
    FROM (SELECT id, sum(bytes) AS bytes FROM (%2$s) r GROUP BY id) d WHERE t.id = d.id AND d.bytes <> 0', TG_ARGV[0], src);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER grid_columns_count_insert AFTER INSERT ON grid_columns REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_stored_bytes('files', 'grid_id', 'bytes');--> statement-breakpoint
CREATE TRIGGER grid_columns_count_update AFTER UPDATE ON grid_columns REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_stored_bytes('files', 'grid_id', 'bytes');--> statement-breakpoint
CREATE TRIGGER grid_columns_count_delete AFTER DELETE ON grid_columns REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_stored_bytes('files', 'grid_id', 'bytes');--> statement-breakpoint
CREATE TRIGGER plots_count_insert AFTER INSERT ON plots REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_stored_bytes('files', 'file_id', 'figure_bytes');--> statement-breakpoint
CREATE TRIGGER documents_count_insert AFTER INSERT ON documents REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_stored_bytes('files', 'file_id', 'content_bytes');--> statement-breakpoint
CREATE TRIGGER files_count_insert AFTER INSERT ON files REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_stored_bytes('users', 'owner_id', 'stored_bytes');--> statement-breakpoint
CREATE TRIGGER files_count_delete AFTER DELETE ON files REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_stored_bytes('users', 'owner_id', 'stored_bytes');--> statement-breakpoint
-- Updates change one row at a time, and plots are updated on every view: row triggers that fire only
-- when the bytes change (a statement trigger with transition tables would fire on each).
CREATE OR REPLACE FUNCTION count_changed_bytes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  CASE TG_TABLE_NAME
    WHEN 'plots' THEN UPDATE files SET stored_bytes = stored_bytes + NEW.figure_bytes - OLD.figure_bytes WHERE id = NEW.file_id;
    WHEN 'documents' THEN UPDATE files SET stored_bytes = stored_bytes + NEW.content_bytes - OLD.content_bytes WHERE id = NEW.file_id;
    ELSE UPDATE users SET stored_bytes = stored_bytes + CASE WHEN id = NEW.owner_id THEN NEW.stored_bytes ELSE 0 END
      - CASE WHEN id = OLD.owner_id THEN OLD.stored_bytes ELSE 0 END WHERE id IN (OLD.owner_id, NEW.owner_id);
  END CASE;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER plots_count_update AFTER UPDATE OF figure_bytes ON plots
  FOR EACH ROW WHEN (NEW.figure_bytes <> OLD.figure_bytes) EXECUTE FUNCTION count_changed_bytes();--> statement-breakpoint
CREATE TRIGGER documents_count_update AFTER UPDATE OF content_bytes ON documents
  FOR EACH ROW WHEN (NEW.content_bytes <> OLD.content_bytes) EXECUTE FUNCTION count_changed_bytes();--> statement-breakpoint
CREATE TRIGGER files_count_update AFTER UPDATE OF stored_bytes, owner_id, metadata ON files
  FOR EACH ROW WHEN (NEW.stored_bytes <> OLD.stored_bytes OR NEW.owner_id <> OLD.owner_id) EXECUTE FUNCTION count_changed_bytes();--> statement-breakpoint
-- A grid's metadata is its file row's own.
CREATE OR REPLACE FUNCTION count_metadata_bytes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.stored_bytes := NEW.stored_bytes + coalesce(octet_length(NEW.metadata::text), 0)
    - CASE WHEN TG_OP = 'UPDATE' THEN coalesce(octet_length(OLD.metadata::text), 0) ELSE 0 END;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER files_count_metadata BEFORE INSERT OR UPDATE OF metadata ON files FOR EACH ROW EXECUTE FUNCTION count_metadata_bytes();--> statement-breakpoint
-- The bound (the connection's plot_files.storage_bytes, from STORAGE_PER_PERSON_MB: db/client.ts;
-- unset or 0: none) refuses a change that grows a person's files past it: PF413, "held bound added"
-- (lib/core/accounts/storage.ts makes it the API's 413). A change that shrinks them always passes.
CREATE OR REPLACE FUNCTION bound_stored_bytes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bound bigint := nullif(current_setting('plot_files.storage_bytes', true), '')::bigint;
BEGIN
  IF bound > 0 AND NEW.stored_bytes > bound THEN
    RAISE EXCEPTION USING ERRCODE = 'PF413', MESSAGE = OLD.stored_bytes || ' ' || bound || ' ' || (NEW.stored_bytes - OLD.stored_bytes);
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER users_bound_stored_bytes BEFORE UPDATE OF stored_bytes ON users
  FOR EACH ROW WHEN (NEW.stored_bytes > OLD.stored_bytes) EXECUTE FUNCTION bound_stored_bytes();
