-- Who wrote a plan's note (any of the four may rewrite it): their words go with their account (lib/plans/ending.ts).
ALTER TABLE "plans" ADD COLUMN "note_by_user_id" uuid;--> statement-breakpoint
-- Notes written before this column were taken as their proposer's, as account deletion read them.
UPDATE "plans" SET "note_by_user_id" = "proposer_user_id" WHERE "note" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_note_by_user_id_users_id_fk" FOREIGN KEY ("note_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plans_note_by_user_idx" ON "plans" USING btree ("note_by_user_id") WHERE "plans"."note_by_user_id" is not null;