CREATE INDEX "forum_mentions_thread_idx" ON "forum_mentions" USING btree ("post_id");--> statement-breakpoint
CREATE INDEX "forum_reactions_thread_idx" ON "forum_reactions" USING btree ("post_id");