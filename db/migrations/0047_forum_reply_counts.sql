-- A forum list counts each post's replies as its viewer may read them (lib/forum/list.ts): the replies of couples blocked either way, by post, and the few hidden by reports.
DROP INDEX "forum_replies_couple_idx";--> statement-breakpoint
CREATE INDEX "forum_replies_couple_post_idx" ON "forum_replies" USING btree ("couple_id","post_id");--> statement-breakpoint
CREATE INDEX "forum_replies_hidden_idx" ON "forum_replies" USING btree ("post_id") WHERE "forum_replies"."hidden_at" is not null;--> statement-breakpoint
-- A reply a moderator removed was still counted (a deleted one was not): counted again without them.
UPDATE "forum_posts" SET "reply_count" = (
  SELECT count(*) FROM "forum_replies" r WHERE r."post_id" = "forum_posts"."id" AND r."deleted_at" IS NULL AND r."removed_at" IS NULL
) WHERE EXISTS (SELECT 1 FROM "forum_replies" r WHERE r."post_id" = "forum_posts"."id" AND r."removed_at" IS NOT NULL);
