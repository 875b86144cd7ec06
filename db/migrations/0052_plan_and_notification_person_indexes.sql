CREATE INDEX "notifications_actor_user_idx" ON "notifications" USING btree ("actor_user_id") WHERE "notifications"."actor_user_id" is not null;--> statement-breakpoint
CREATE INDEX "notifications_actor_couple_idx" ON "notifications" USING btree ("actor_couple_id") WHERE "notifications"."actor_couple_id" is not null;--> statement-breakpoint
CREATE INDEX "plan_answers_user_idx" ON "plan_answers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "plan_feedback_user_idx" ON "plan_feedback" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "plan_shares_couple_idx" ON "plan_shares" USING btree ("couple_id");