-- A live event's kind is text: the kinds are the ones features register (lib/registry/live.ts).
ALTER TABLE "live_events" ALTER COLUMN "kind" SET DATA TYPE text;--> statement-breakpoint
DROP TYPE "public"."live_event_kind";--> statement-breakpoint
-- What a kind names beyond its subject moves into the payload: a read position's and an ended
-- conversation's conversation. A message's and a deleted message's conversation is its
-- message's, so those rows need none.
ALTER TABLE "live_events" ADD COLUMN "payload" jsonb;--> statement-breakpoint
UPDATE "live_events" SET "payload" = jsonb_build_object('conversationId', "conversation_id") WHERE "conversation_id" IS NOT NULL AND "kind" IN ('read', 'connection');--> statement-breakpoint
ALTER TABLE "live_events" DROP COLUMN "conversation_id";
