-- A local post keeps how fine its place is (lib/forum/place.ts): a couple that shows its place less
-- finely than when it posted takes that place off the post for others. Posts so far take their
-- couple's level now (region, else city): none shows less than it does today.
ALTER TABLE "forum_posts" DROP CONSTRAINT "forum_posts_local_place_check";--> statement-breakpoint
ALTER TABLE "forum_posts" ADD COLUMN "place_level" text;--> statement-breakpoint
UPDATE "forum_posts" p SET "place_level" = CASE WHEN EXISTS (
  SELECT 1 FROM "locations" l WHERE l."entity_type" = 'couple' AND l."entity_id" = p."couple_id" AND l."privacy_level" = 'region'
) THEN 'region' ELSE 'city' END
WHERE p."scope" = 'local';--> statement-breakpoint
ALTER TABLE "forum_posts" ADD CONSTRAINT "forum_posts_local_place_check" CHECK ("forum_posts"."scope" <> 'local' or ("forum_posts"."place" is not null and "forum_posts"."latitude" is not null and "forum_posts"."longitude" is not null and "forum_posts"."place_level" in ('city', 'region')));
