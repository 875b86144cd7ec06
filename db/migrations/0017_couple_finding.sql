ALTER TABLE "couples" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "couples" ADD COLUMN "match_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "couples_discoverable_match_changed_idx" ON "couples" USING btree ("match_changed_at") WHERE "couples"."status" = 'active' and "couples"."is_visible";--> statement-breakpoint
-- hand-written:
-- The directory's search and discover's freshness.
-- What the directory's search finds a couple by (couples.search_text): its name, its partners'
-- first names (the forum's signatures show them to everyone) and its place's name as others see it
-- (lib/locations/privacy.ts shownName: the chosen name at 'full', city, region and country at
-- 'city', region and country at 'region', the country at 'country', nothing when hidden).
CREATE FUNCTION couple_search_text(couple uuid, name text, a_id uuid, b_id uuid) RETURNS text LANGUAGE sql STABLE AS $$
  select concat_ws(' ', name,
    (select first_name from public.users where id = a_id),
    (select first_name from public.users where id = b_id),
    (select case l.privacy_level
        when 'full' then l.display_location
        when 'city' then concat_ws(' ', l.city, l.state, l.country)
        when 'region' then concat_ws(' ', l.state, l.country)
        when 'country' then l.country
      end
      from public.locations l where l.entity_type = 'couple' and l.entity_id = couple))
$$;--> statement-breakpoint
CREATE FUNCTION couples_search_text_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := public.couple_search_text(NEW.id, NEW.couple_name, NEW.partner1_id, NEW.partner2_id);
  RETURN NEW;
END $$;--> statement-breakpoint
-- Partner B joining or leaving (an erased account sets partner2_id to null) changes it too.
CREATE TRIGGER couples_search_text BEFORE INSERT OR UPDATE OF couple_name, partner1_id, partner2_id ON couples
  FOR EACH ROW EXECUTE FUNCTION couples_search_text_trg();--> statement-breakpoint
CREATE FUNCTION users_search_text_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE public.couples SET search_text = public.couple_search_text(id, couple_name, partner1_id, partner2_id)
  WHERE partner1_id = NEW.id OR partner2_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_search_text AFTER UPDATE OF first_name ON users
  FOR EACH ROW WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name) EXECUTE FUNCTION users_search_text_trg();--> statement-breakpoint
-- A couple's place changed (chosen, moved, its privacy level, removed): its search text, and
-- discover's match time (below).
CREATE FUNCTION locations_couple_trg() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  place public.locations := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
BEGIN
  IF place.entity_type = 'couple' THEN
    UPDATE public.couples
    SET search_text = public.couple_search_text(id, couple_name, partner1_id, partner2_id), match_changed_at = now()
    WHERE id = place.entity_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER locations_couple AFTER INSERT OR UPDATE OR DELETE ON locations
  FOR EACH ROW EXECUTE FUNCTION locations_couple_trg();--> statement-breakpoint
-- couples.match_changed_at: when what discover matches the couple on changed (its interests, as
-- couples_match_interests of 0009 keeps them, so a partner's change counts; its styles; whether it
-- is discoverable). Named to fire after couples_match_interests, whose result it compares.
CREATE FUNCTION couples_match_changed_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR OLD.match_interests IS DISTINCT FROM NEW.match_interests OR OLD.couple_types IS DISTINCT FROM NEW.couple_types
    OR OLD.status IS DISTINCT FROM NEW.status OR OLD.is_visible IS DISTINCT FROM NEW.is_visible THEN
    NEW.match_changed_at := now();
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER couples_touch_match_changed BEFORE INSERT OR UPDATE ON couples
  FOR EACH ROW EXECUTE FUNCTION couples_match_changed_trg();--> statement-breakpoint
UPDATE couples SET search_text = couple_search_text(id, couple_name, partner1_id, partner2_id);--> statement-breakpoint
-- The directory's search (every word: search_text ilike '%word%'), discoverable couples only; it
-- replaces the name-only index of 0009.
DROP INDEX couples_discoverable_name_trgm_idx;--> statement-breakpoint
CREATE INDEX couples_discoverable_search_trgm_idx ON couples USING gin (search_text gin_trgm_ops) WHERE status = 'active' AND is_visible;
