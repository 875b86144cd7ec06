CREATE INDEX IF NOT EXISTS "notifications_post_reply_idx" ON "notifications" USING btree ("post_id","reply_id") WHERE "notifications"."post_id" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "notifications_plan_idx" ON "notifications" USING btree ("plan_id") WHERE "notifications"."plan_id" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "notifications_conversation_idx" ON "notifications" USING btree ("conversation_id") WHERE "notifications"."conversation_id" is not null;
-- Hand-written note: indexes only, on columns every row already has, so nothing to back-fill.
-- The migrations run in one transaction, so these cannot be built CONCURRENTLY here: each build
-- reads the whole table and holds a SHARE lock on notifications until the commit (reads go on;
-- new notifications, marking read and withdrawals wait). On a big table, build them first with
-- CREATE INDEX CONCURRENTLY under these exact names and definitions: IF NOT EXISTS then skips them.
