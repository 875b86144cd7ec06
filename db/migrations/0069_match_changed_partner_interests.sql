-- hand-written:
-- couples.match_changed_at follows everything discover's score reads of a couple (lib/discover/rules.ts):
-- besides its interests together, styles, place and whether it is discoverable (0017), each
-- partner's own interests (the interests all four people hold) and how many partners it has (with
-- one, none are held by all four). Either can change while the partners' interests together stay
-- the same, and a stored list that misses the change misses a couple that now ranks.
CREATE OR REPLACE FUNCTION users_match_interests_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE public.couples
  SET match_interests = public.couple_match_interests(partner1_id, partner2_id, interests), match_changed_at = now()
  WHERE partner1_id = NEW.id OR partner2_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION couples_match_changed_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR OLD.match_interests IS DISTINCT FROM NEW.match_interests OR OLD.couple_types IS DISTINCT FROM NEW.couple_types
    OR OLD.status IS DISTINCT FROM NEW.status OR OLD.is_visible IS DISTINCT FROM NEW.is_visible
    OR OLD.partner1_id IS DISTINCT FROM NEW.partner1_id OR OLD.partner2_id IS DISTINCT FROM NEW.partner2_id THEN
    NEW.match_changed_at := now();
  END IF;
  RETURN NEW;
END $$;
