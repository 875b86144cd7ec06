ALTER TABLE "couples" ADD COLUMN "match_interests" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "couples_discoverable_interests_idx" ON "couples" USING gin ("match_interests") WHERE "couples"."status" = 'active' and "couples"."is_visible";--> statement-breakpoint
-- hand-written:
-- Extensions (trusted; PGlite loads them in db/client.ts): cube for the nearest-first walk, pg_trgm for the name search.
CREATE EXTENSION IF NOT EXISTS cube;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- A couple's interests as the directory counts them (couples.match_interests): the union of both
-- partners' lists, each once, or the couple's own list when both are empty.
CREATE FUNCTION couple_match_interests(a_id uuid, b_id uuid, own text[]) RETURNS text[] LANGUAGE sql STABLE AS $$
  select case when cardinality(p.merged) = 0 then own else array(select distinct x from unnest(p.merged) x order by x) end
  from (select coalesce((select interests from users where id = a_id), '{}'::text[])
    || coalesce((select interests from users where id = b_id), '{}'::text[]) as merged) p
$$;--> statement-breakpoint
CREATE FUNCTION couples_match_interests_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.match_interests := couple_match_interests(NEW.partner1_id, NEW.partner2_id, NEW.interests);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER couples_match_interests BEFORE INSERT OR UPDATE OF partner1_id, partner2_id, interests ON couples
  FOR EACH ROW EXECUTE FUNCTION couples_match_interests_trg();--> statement-breakpoint
CREATE FUNCTION users_match_interests_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE couples SET match_interests = couple_match_interests(partner1_id, partner2_id, interests)
  WHERE partner1_id = NEW.id OR partner2_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_match_interests AFTER UPDATE OF interests ON users
  FOR EACH ROW WHEN (OLD.interests IS DISTINCT FROM NEW.interests) EXECUTE FUNCTION users_match_interests_trg();--> statement-breakpoint
UPDATE couples SET match_interests = couple_match_interests(partner1_id, partner2_id, interests);--> statement-breakpoint
-- A place's shown coordinate (lib/locations/privacy.ts shownCoordinates): exact at 'full', snapped
-- to 0.01° at 'city' and 1° at 'region', none at 'country' and 'hidden'.
CREATE FUNCTION shown_coordinate(level privacy_level, x double precision) RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  select case level when 'full' then x when 'city' then floor(x * 100 + 0.5) / 100 when 'region' then floor(x * 1 + 0.5) / 1 end
$$;--> statement-breakpoint
-- The shown point as a unit vector: the distance between two of them (cube's <->) is the chord,
-- which orders exactly as the great-circle distance (km = 2R asin(chord / 2)), so a GiST index
-- walks places nearest first. Null without a shown point. PL/pgSQL, so never inlined: a query
-- names it in a dozen places, and inlined it took milliseconds to plan. Names are
-- schema-qualified: Postgres 17 (PGlite) builds an index with a search_path of pg_catalog only.
CREATE FUNCTION shown_point(level privacy_level, lat double precision, lng double precision) RETURNS cube LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  shown_lat double precision := public.shown_coordinate(level, lat);
  shown_lng double precision := public.shown_coordinate(level, lng);
BEGIN
  IF shown_lat IS NULL OR shown_lng IS NULL THEN RETURN NULL; END IF;
  RETURN public.cube(array[cos(radians(shown_lat)) * cos(radians(shown_lng)), cos(radians(shown_lat)) * sin(radians(shown_lng)), sin(radians(shown_lat))]);
END $$;--> statement-breakpoint
-- The directory's nearest sort and distance filter (couples' places with a shown point only).
CREATE INDEX locations_couple_shown_point_idx ON locations USING gist (shown_point(privacy_level, latitude, longitude))
  WHERE entity_type = 'couple' AND privacy_level IN ('full', 'city', 'region') AND latitude IS NOT NULL AND longitude IS NOT NULL;--> statement-breakpoint
-- The directory's name search (ilike '%q%'), discoverable couples only.
CREATE INDEX couples_discoverable_name_trgm_idx ON couples USING gin (couple_name gin_trgm_ops) WHERE status = 'active' AND is_visible;
