-- plots.stars and plots.comment_count follow their rows exactly: each insert or delete (a cascade from a
-- deleted user included) moves its plot's counter in the same transaction, under the plot row's lock.
CREATE FUNCTION stars_count_plot() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE plots SET stars = stars + 1 WHERE file_id = NEW.file_id;
  ELSE
    UPDATE plots SET stars = stars - 1 WHERE file_id = OLD.file_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER stars_count_plot AFTER INSERT OR DELETE ON stars
  FOR EACH ROW EXECUTE FUNCTION stars_count_plot();--> statement-breakpoint
CREATE FUNCTION comments_count_plot() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE plots SET comment_count = comment_count + 1 WHERE file_id = NEW.file_id;
  ELSE
    UPDATE plots SET comment_count = comment_count - 1 WHERE file_id = OLD.file_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER comments_count_plot AFTER INSERT OR DELETE ON comments
  FOR EACH ROW EXECUTE FUNCTION comments_count_plot();
