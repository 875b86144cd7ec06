ALTER TABLE "email_outbox" ADD COLUMN "recipient_id" uuid;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "notification_type" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "conversation_id" uuid;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_notification_recipient_check" CHECK ("email_outbox"."notification_type" is null or "email_outbox"."recipient_id" is not null);