DROP INDEX "reports_reporter_target_key";--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "reported_title" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "reported_body" text;--> statement-breakpoint
CREATE UNIQUE INDEX "reports_reporter_target_key" ON "reports" USING btree ("reporter_user_id","target_type","target_id") WHERE "reports"."status" = 'open';