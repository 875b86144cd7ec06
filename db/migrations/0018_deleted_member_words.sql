ALTER TABLE "forum_posts" DROP CONSTRAINT "forum_posts_couple_id_couples_id_fk";
--> statement-breakpoint
ALTER TABLE "forum_replies" DROP CONSTRAINT "forum_replies_couple_id_couples_id_fk";
--> statement-breakpoint
ALTER TABLE "forum_posts" ALTER COLUMN "couple_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "forum_replies" ALTER COLUMN "couple_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "forum_posts" ADD CONSTRAINT "forum_posts_couple_id_couples_id_fk" FOREIGN KEY ("couple_id") REFERENCES "public"."couples"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_replies" ADD CONSTRAINT "forum_replies_couple_id_couples_id_fk" FOREIGN KEY ("couple_id") REFERENCES "public"."couples"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "forum_replies_couple_idx" ON "forum_replies" USING btree ("couple_id");