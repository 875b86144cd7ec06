DROP INDEX "reports_reporter_target_key";--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "reported_title" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "reported_body" text;--> statement-breakpoint
CREATE UNIQUE INDEX "reports_reporter_target_key" ON "reports" USING btree ("reporter_user_id","target_type","target_id") WHERE "reports"."status" = 'open';--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reported_words_check" CHECK (char_length("reports"."reported_title") <= 150 and char_length("reports"."reported_body") <= case "reports"."target_type"::text when 'post' then 10000 when 'reply' then 5000 when 'message' then 4000 else 0 end);