DROP INDEX "forum_reactions_user_idx";--> statement-breakpoint
DROP INDEX "message_reactions_user_idx";--> statement-breakpoint
CREATE INDEX "forum_reactions_user_created_idx" ON "forum_reactions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "message_reactions_user_created_idx" ON "message_reactions" USING btree ("user_id","created_at");