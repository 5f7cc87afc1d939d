-- plots.created_at and plots.listed mirror the plot's files row, so that list queries scan one partial
-- index of one table. Triggers keep them true whatever path changes files.
CREATE FUNCTION plots_copy_file_state() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT f.created_at, f.world_readable AND f.trashed_at IS NULL
    INTO NEW.created_at, NEW.listed
    FROM files f WHERE f.id = NEW.file_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER plots_copy_file_state BEFORE INSERT ON plots
  FOR EACH ROW EXECUTE FUNCTION plots_copy_file_state();
--> statement-breakpoint
CREATE FUNCTION files_sync_plot_listed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE plots SET listed = NEW.world_readable AND NEW.trashed_at IS NULL, created_at = NEW.created_at
   WHERE file_id = NEW.id
     AND (listed IS DISTINCT FROM (NEW.world_readable AND NEW.trashed_at IS NULL) OR created_at <> NEW.created_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER files_sync_plot_listed AFTER UPDATE OF world_readable, trashed_at, created_at ON files
  FOR EACH ROW WHEN (NEW.filetype = 'plot') EXECUTE FUNCTION files_sync_plot_listed();
