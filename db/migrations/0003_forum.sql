CREATE TYPE "public"."user_role" AS ENUM('member', 'admin');--> statement-breakpoint
CREATE TYPE "public"."forum_scope" AS ENUM('global', 'local');--> statement-breakpoint
CREATE TYPE "public"."forum_topic" AS ENUM('travel', 'food_drink', 'outdoors', 'culture_creativity', 'wellness', 'career_money', 'home_life', 'meetups');--> statement-breakpoint
CREATE TYPE "public"."reaction_kind" AS ENUM('heart', 'laugh', 'wow', 'clap', 'hug');--> statement-breakpoint
CREATE TYPE "public"."report_reason" AS ENUM('spam', 'harassment', 'inappropriate', 'other');--> statement-breakpoint
CREATE TYPE "public"."report_status" AS ENUM('open', 'dismissed', 'removed');--> statement-breakpoint
CREATE TYPE "public"."report_target_type" AS ENUM('post', 'reply', 'couple');--> statement-breakpoint
CREATE TABLE "couple_blocks" (
	"blocker_couple_id" uuid NOT NULL,
	"blocked_couple_id" uuid NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "couple_blocks_pkey" PRIMARY KEY("blocker_couple_id","blocked_couple_id"),
	CONSTRAINT "couple_blocks_not_self_check" CHECK ("couple_blocks"."blocker_couple_id" <> "couple_blocks"."blocked_couple_id")
);
--> statement-breakpoint
CREATE TABLE "forum_mentions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid NOT NULL,
	"reply_id" uuid,
	"mentioned_couple_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forum_photos" (
	"url" text PRIMARY KEY NOT NULL,
	"owner_user_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forum_posts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"author_user_id" uuid NOT NULL,
	"couple_id" uuid NOT NULL,
	"scope" "forum_scope" NOT NULL,
	"topic" "forum_topic" NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"photos" text[] DEFAULT '{}'::text[] NOT NULL,
	"place" text,
	"latitude" double precision,
	"longitude" double precision,
	"reply_count" integer DEFAULT 0 NOT NULL,
	"last_activity_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp (3) with time zone,
	"deleted_at" timestamp (3) with time zone,
	"hidden_at" timestamp (3) with time zone,
	"removed_at" timestamp (3) with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', "forum_posts"."title"), 'A') || setweight(to_tsvector('english', "forum_posts"."body"), 'B')) STORED NOT NULL,
	CONSTRAINT "forum_posts_local_place_check" CHECK ("forum_posts"."scope" <> 'local' or ("forum_posts"."place" is not null and "forum_posts"."latitude" is not null and "forum_posts"."longitude" is not null))
);
--> statement-breakpoint
CREATE TABLE "forum_reactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid NOT NULL,
	"reply_id" uuid,
	"user_id" uuid NOT NULL,
	"couple_id" uuid NOT NULL,
	"kind" "reaction_kind" NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forum_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid NOT NULL,
	"author_user_id" uuid NOT NULL,
	"couple_id" uuid NOT NULL,
	"quote_reply_id" uuid,
	"body" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp (3) with time zone,
	"deleted_at" timestamp (3) with time zone,
	"hidden_at" timestamp (3) with time zone,
	"removed_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reporter_user_id" uuid NOT NULL,
	"reporter_couple_id" uuid NOT NULL,
	"target_type" "report_target_type" NOT NULL,
	"target_id" uuid NOT NULL,
	"reason" "report_reason" NOT NULL,
	"note" text,
	"status" "report_status" DEFAULT 'open' NOT NULL,
	"reviewed_by_user_id" uuid,
	"reviewed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "group_key" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "actor_count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role" "user_role" DEFAULT 'member' NOT NULL;--> statement-breakpoint
ALTER TABLE "couple_blocks" ADD CONSTRAINT "couple_blocks_blocker_couple_id_couples_id_fk" FOREIGN KEY ("blocker_couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "couple_blocks" ADD CONSTRAINT "couple_blocks_blocked_couple_id_couples_id_fk" FOREIGN KEY ("blocked_couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "couple_blocks" ADD CONSTRAINT "couple_blocks_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_mentions" ADD CONSTRAINT "forum_mentions_post_id_forum_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."forum_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_mentions" ADD CONSTRAINT "forum_mentions_reply_id_forum_replies_id_fk" FOREIGN KEY ("reply_id") REFERENCES "public"."forum_replies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_mentions" ADD CONSTRAINT "forum_mentions_mentioned_couple_id_couples_id_fk" FOREIGN KEY ("mentioned_couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_photos" ADD CONSTRAINT "forum_photos_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_posts" ADD CONSTRAINT "forum_posts_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_posts" ADD CONSTRAINT "forum_posts_couple_id_couples_id_fk" FOREIGN KEY ("couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_reactions" ADD CONSTRAINT "forum_reactions_post_id_forum_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."forum_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_reactions" ADD CONSTRAINT "forum_reactions_reply_id_forum_replies_id_fk" FOREIGN KEY ("reply_id") REFERENCES "public"."forum_replies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_reactions" ADD CONSTRAINT "forum_reactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_reactions" ADD CONSTRAINT "forum_reactions_couple_id_couples_id_fk" FOREIGN KEY ("couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_replies" ADD CONSTRAINT "forum_replies_post_id_forum_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."forum_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_replies" ADD CONSTRAINT "forum_replies_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_replies" ADD CONSTRAINT "forum_replies_couple_id_couples_id_fk" FOREIGN KEY ("couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_replies" ADD CONSTRAINT "forum_replies_quote_reply_id_forum_replies_id_fk" FOREIGN KEY ("quote_reply_id") REFERENCES "public"."forum_replies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_user_id_users_id_fk" FOREIGN KEY ("reporter_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_couple_id_couples_id_fk" FOREIGN KEY ("reporter_couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reviewed_by_user_id_users_id_fk" FOREIGN KEY ("reviewed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "couple_blocks_blocked_idx" ON "couple_blocks" USING btree ("blocked_couple_id","blocker_couple_id");--> statement-breakpoint
CREATE UNIQUE INDEX "forum_mentions_post_couple_key" ON "forum_mentions" USING btree ("post_id","mentioned_couple_id") WHERE "forum_mentions"."reply_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "forum_mentions_reply_couple_key" ON "forum_mentions" USING btree ("reply_id","mentioned_couple_id") WHERE "forum_mentions"."reply_id" is not null;--> statement-breakpoint
CREATE INDEX "forum_mentions_couple_idx" ON "forum_mentions" USING btree ("mentioned_couple_id");--> statement-breakpoint
CREATE INDEX "forum_photos_owner_idx" ON "forum_photos" USING btree ("owner_user_id");--> statement-breakpoint
CREATE INDEX "forum_posts_latest_idx" ON "forum_posts" USING btree ("scope","last_activity_at","id") WHERE "forum_posts"."deleted_at" is null and "forum_posts"."hidden_at" is null and "forum_posts"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "forum_posts_new_idx" ON "forum_posts" USING btree ("scope","created_at","id") WHERE "forum_posts"."deleted_at" is null and "forum_posts"."hidden_at" is null and "forum_posts"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "forum_posts_topic_latest_idx" ON "forum_posts" USING btree ("scope","topic","last_activity_at","id") WHERE "forum_posts"."deleted_at" is null and "forum_posts"."hidden_at" is null and "forum_posts"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "forum_posts_topic_new_idx" ON "forum_posts" USING btree ("scope","topic","created_at","id") WHERE "forum_posts"."deleted_at" is null and "forum_posts"."hidden_at" is null and "forum_posts"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "forum_posts_search_idx" ON "forum_posts" USING gin ("search_vector") WHERE "forum_posts"."deleted_at" is null and "forum_posts"."hidden_at" is null and "forum_posts"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "forum_posts_local_point_idx" ON "forum_posts" USING btree ("latitude","longitude") WHERE "forum_posts"."scope" = 'local' and "forum_posts"."deleted_at" is null and "forum_posts"."hidden_at" is null and "forum_posts"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "forum_posts_couple_idx" ON "forum_posts" USING btree ("couple_id","created_at");--> statement-breakpoint
CREATE INDEX "forum_posts_author_recent_idx" ON "forum_posts" USING btree ("author_user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "forum_reactions_post_user_kind_key" ON "forum_reactions" USING btree ("post_id","user_id","kind") WHERE "forum_reactions"."reply_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "forum_reactions_reply_user_kind_key" ON "forum_reactions" USING btree ("reply_id","user_id","kind") WHERE "forum_reactions"."reply_id" is not null;--> statement-breakpoint
CREATE INDEX "forum_reactions_post_recent_idx" ON "forum_reactions" USING btree ("created_at","post_id") WHERE "forum_reactions"."reply_id" is null;--> statement-breakpoint
CREATE INDEX "forum_reactions_user_idx" ON "forum_reactions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "forum_replies_thread_idx" ON "forum_replies" USING btree ("post_id","created_at","id");--> statement-breakpoint
CREATE INDEX "forum_replies_author_recent_idx" ON "forum_replies" USING btree ("author_user_id","created_at");--> statement-breakpoint
CREATE INDEX "forum_replies_quote_idx" ON "forum_replies" USING btree ("quote_reply_id") WHERE "forum_replies"."quote_reply_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "reports_reporter_target_key" ON "reports" USING btree ("reporter_user_id","target_type","target_id");--> statement-breakpoint
CREATE INDEX "reports_target_idx" ON "reports" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "reports_open_idx" ON "reports" USING btree ("created_at") WHERE "reports"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_unread_group_key" ON "notifications" USING btree ("user_id","group_key") WHERE "notifications"."is_read" = false and "notifications"."group_key" is not null;