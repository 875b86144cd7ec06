DROP INDEX "notifications_user_created_idx";--> statement-breakpoint
DROP INDEX "notifications_user_group_created_idx";--> statement-breakpoint
CREATE INDEX "notifications_user_created_idx" ON "notifications" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "notifications_user_group_created_idx" ON "notifications" USING btree ("user_id","group_key","created_at") WHERE "notifications"."group_key" is not null;