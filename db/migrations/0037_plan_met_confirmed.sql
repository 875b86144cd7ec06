-- 'You met on ...' recorded once both couples said 'Great' and then kept: read from the answers
-- as they stand, the line went away when one person changed theirs, telling the other couple.
-- The plans whose answers show it now keep it.
ALTER TABLE "plans" ADD COLUMN "met_confirmed_at" timestamp (3) with time zone;--> statement-breakpoint
UPDATE "plans" SET "met_confirmed_at" = now()
WHERE (SELECT count(DISTINCT "couple_id") FROM "plan_feedback" WHERE "plan_feedback"."plan_id" = "plans"."id") = 2
  AND NOT EXISTS (SELECT 1 FROM "plan_feedback" WHERE "plan_feedback"."plan_id" = "plans"."id" AND "plan_feedback"."answer" <> 'great');
