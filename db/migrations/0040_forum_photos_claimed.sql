-- A forum upload is claimed by the post that shows it (its row goes, lib/forum/photos.ts), so the
-- rows left are uploads no post shows, which the due work sweeps after a day with their files. A
-- post already deleted or removed shows no photo any more (its uploads, unclaimed, are swept); the
-- rows of photos the other posts show are claimed. Addresses in their one spelling (NFC, as
-- lib/auth/rules.ts normalizeEmail writes them now), where that spelling is not taken already.
-- The sweeps' indexes, oldest first.
UPDATE "forum_posts" SET "photos" = '{}' WHERE ("deleted_at" IS NOT NULL OR "removed_at" IS NOT NULL) AND "photos" <> '{}';--> statement-breakpoint
DELETE FROM "forum_photos" USING "forum_posts" WHERE "forum_photos"."url" = ANY("forum_posts"."photos");--> statement-breakpoint
UPDATE "users" u SET "email" = normalize(u."email", NFC) WHERE u."email" <> normalize(u."email", NFC) AND NOT EXISTS (SELECT 1 FROM "users" o WHERE o."email" = normalize(u."email", NFC));--> statement-breakpoint
UPDATE "invitations" i SET "partner_email" = normalize(i."partner_email", NFC) WHERE i."partner_email" <> normalize(i."partner_email", NFC) AND NOT EXISTS (SELECT 1 FROM "invitations" o WHERE o."couple_id" = i."couple_id" AND o."partner_email" = normalize(i."partner_email", NFC));--> statement-breakpoint
CREATE INDEX "forum_photos_created_idx" ON "forum_photos" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "message_photos_created_idx" ON "message_photos" USING btree ("created_at");
