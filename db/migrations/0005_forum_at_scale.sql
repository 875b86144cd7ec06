CREATE TABLE "forum_top_window" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"decayed_until" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "forum_top_window_single_row_check" CHECK ("forum_top_window"."id" = 1)
);
--> statement-breakpoint
DROP INDEX "forum_posts_local_point_idx";--> statement-breakpoint
ALTER TABLE "forum_posts" ADD COLUMN "top_score" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "couples_name_words_idx" ON "couples" USING gin (to_tsvector('simple', "couple_name"));--> statement-breakpoint
CREATE INDEX "forum_mentions_thread_idx" ON "forum_mentions" USING btree ("post_id");--> statement-breakpoint
CREATE INDEX "forum_posts_top_idx" ON "forum_posts" USING btree ("scope","top_score","id") WHERE "forum_posts"."deleted_at" is null and "forum_posts"."hidden_at" is null and "forum_posts"."removed_at" is null and "forum_posts"."top_score" > 0;--> statement-breakpoint
CREATE INDEX "forum_posts_topic_top_idx" ON "forum_posts" USING btree ("scope","topic","top_score","id") WHERE "forum_posts"."deleted_at" is null and "forum_posts"."hidden_at" is null and "forum_posts"."removed_at" is null and "forum_posts"."top_score" > 0;--> statement-breakpoint
CREATE INDEX "forum_posts_local_box_idx" ON "forum_posts" USING gist (point("longitude", "latitude")) WHERE "forum_posts"."scope" = 'local' and "forum_posts"."deleted_at" is null and "forum_posts"."hidden_at" is null and "forum_posts"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "forum_reactions_thread_idx" ON "forum_reactions" USING btree ("post_id");--> statement-breakpoint
-- Custom: Top's window starts now, and the posts' scores count the reactions of the last 7 days.
INSERT INTO "forum_top_window" ("id", "decayed_until") VALUES (1, now()) ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "forum_posts" p SET "top_score" = r.n
FROM (SELECT "post_id", count(*)::int AS n FROM "forum_reactions" WHERE "reply_id" IS NULL AND "created_at" > now() - interval '7 days' GROUP BY "post_id") r
WHERE p."id" = r."post_id";
