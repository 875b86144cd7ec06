-- Each banned address names the ban that holds it, so lifting that ban (an appeal granted) frees it again, but for another standing ban's (lib/safety/sanctions.ts liftLocked).
ALTER TABLE "banned_emails" DROP CONSTRAINT "banned_emails_pkey";--> statement-breakpoint
ALTER TABLE "banned_emails" ADD COLUMN "sanction_id" uuid;--> statement-breakpoint
-- A ban kept its addresses in its own transaction, so at its own created_at (now()): that names their ban. Unmatched (a deleted couple's ban): null, held for good.
UPDATE "banned_emails" SET "sanction_id" = s."id" FROM "couple_sanctions" s WHERE s."kind" = 'ban' AND s."created_at" = "banned_emails"."created_at";--> statement-breakpoint
-- A later ban of the same couple found those addresses already kept (one row per address until now): it holds them too.
INSERT INTO "banned_emails" ("email_hash", "sanction_id", "created_at")
SELECT b."email_hash", later."id", later."created_at" FROM "banned_emails" b
JOIN "couple_sanctions" s ON s."id" = b."sanction_id"
JOIN "couple_sanctions" later ON later."couple_id" = s."couple_id" AND later."kind" = 'ban' AND later."created_at" > s."created_at";--> statement-breakpoint
-- The addresses of bans lifted before now are free again.
DELETE FROM "banned_emails" b USING "couple_sanctions" s WHERE s."id" = b."sanction_id" AND s."lifted_at" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "banned_emails_hash_sanction_idx" ON "banned_emails" USING btree ("email_hash","sanction_id");--> statement-breakpoint
CREATE INDEX "banned_emails_sanction_idx" ON "banned_emails" USING btree ("sanction_id");
