-- A local post keeps how fine its place is (lib/forum/place.ts): a couple that shows its place less
-- finely than when it posted takes that place off the post for others. A post so far tells it by
-- its point: region-level points are whole degrees, city-level ones on the 0.01° grid. Null stays
-- allowed (an instance of the code before levels, mid-deploy, writes none): it reads as city.
ALTER TABLE "forum_posts" ADD COLUMN "place_level" text;--> statement-breakpoint
UPDATE "forum_posts" SET "place_level" = CASE
  WHEN "latitude" = round("latitude") AND "longitude" = round("longitude") THEN 'region' ELSE 'city' END
WHERE "scope" = 'local';--> statement-breakpoint
ALTER TABLE "forum_posts" ADD CONSTRAINT "forum_posts_place_level_check" CHECK ("forum_posts"."place_level" in ('city', 'region'));
