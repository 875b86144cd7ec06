-- E-mails tried again: a failed delivery (the provider down or asking to slow down) or one never
-- tried (an instance stopped after the commit) was left undelivered for good. The due work now
-- tries each again, with a growing wait, a few times. What waits now, from the last day, is due.
ALTER TABLE "email_outbox" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "retry_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "email_outbox_retry_idx" ON "email_outbox" USING btree ("retry_at") WHERE "email_outbox"."retry_at" is not null;--> statement-breakpoint
UPDATE "email_outbox" SET "retry_at" = now() WHERE "delivered_at" IS NULL AND "created_at" > now() - interval '1 day';
