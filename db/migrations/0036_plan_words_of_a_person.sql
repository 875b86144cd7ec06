-- Who cancelled a plan with a reason (the reason is their words), and the indexes an account's
-- deletion finds the person's plan words by: the plans they proposed (the note) and cancelled
-- with a reason. Partial: a null one (the app ended the plan, an account is gone) is never looked for.
ALTER TABLE "plans" ADD COLUMN "cancelled_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_cancelled_by_user_id_users_id_fk" FOREIGN KEY ("cancelled_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plans_proposer_user_idx" ON "plans" USING btree ("proposer_user_id") WHERE "plans"."proposer_user_id" is not null;--> statement-breakpoint
CREATE INDEX "plans_cancelled_by_user_idx" ON "plans" USING btree ("cancelled_by_user_id") WHERE "plans"."cancelled_by_user_id" is not null;