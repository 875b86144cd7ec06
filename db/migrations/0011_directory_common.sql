-- hand-written:
-- A list of interests as a bitmask: bit i (from 0) for the i-th value below. 'Most in common' counts
-- two couples' shared interests as the popcount of their masks' AND (lib/directory/queries.ts).
-- The values are the catalogue's (lib/interests/catalogue.ts) in its order of today; the list is
-- append-only: an interest added to the catalogue is appended here by a new migration (CREATE OR
-- REPLACE; no stored mask changes, since no couple held it), never inserted, so every stored
-- mask keeps its meaning. 53 values at most (the schema reads the mask as a JavaScript number, exact to 2^53). tests/integration/directory.test.ts
-- fails while a catalogue interest has no bit of its own.
CREATE FUNCTION interest_mask(interests text[]) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  select coalesce(bit_or(1::bigint << (catalogue.position - 1)::int), 0)
  from unnest(array[
    'travel', 'food_dining', 'wine_tasting', 'home_entertaining', 'cooking', 'board_games', 'gardening',
    'outdoor_activities', 'adventure_sports', 'hiking', 'cycling', 'sailing', 'skiing',
    'arts_culture', 'music', 'reading', 'photography', 'live_music', 'theatre', 'film', 'dance', 'writing',
    'technology', 'investing', 'sustainability',
    'fitness_wellness', 'yoga', 'running',
    'entrepreneurship', 'career_development', 'languages', 'volunteering'
  ]::text[]) with ordinality as catalogue(interest, position)
  where catalogue.interest = any(interests)
$$;--> statement-breakpoint
-- generated:
ALTER TABLE "couples" ADD COLUMN "match_interests_mask" bigint GENERATED ALWAYS AS (public.interest_mask(match_interests)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "couples_discoverable_common_idx" ON "couples" USING btree ("match_interests_mask","id") WHERE "couples"."status" = 'active' and "couples"."is_visible";

