-- A notification type is text: the types are the definitions in lib/notifications/types.
ALTER TABLE "notifications" ALTER COLUMN "type" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "notification_preferences" ALTER COLUMN "type" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "unsubscribe_tokens" ALTER COLUMN "type" SET DATA TYPE text;--> statement-breakpoint
DROP TYPE "public"."notification_type";