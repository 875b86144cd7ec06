ALTER TABLE "notifications" ADD COLUMN "plan_id" uuid;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "plan_id" uuid;--> statement-breakpoint
ALTER TABLE "push_outbox" ADD COLUMN "plan_id" uuid;
-- Hand-written note: no backfill here. The migrations run in one transaction, and an UPDATE of
-- the bells' rows would hold these tables' locks while it read every notification. The notices
-- written before this carry no plan_id; removePlan finds them by their exact title instead
-- (lib/plans/ending.ts noticesOfPlan). A waiting push or e-mail leaves within a day.
