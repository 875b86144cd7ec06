-- A forum upload is claimed by the post that shows it (its row goes, lib/forum/photos.ts), so the
-- rows left are uploads no post shows, which the due work sweeps after a day: the rows of photos
-- posts show today are claimed here first. The sweeps' indexes, oldest first.
DELETE FROM "forum_photos" USING "forum_posts" WHERE "forum_photos"."url" = ANY("forum_posts"."photos");--> statement-breakpoint
CREATE INDEX "forum_photos_created_idx" ON "forum_photos" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "message_photos_created_idx" ON "message_photos" USING btree ("created_at");
