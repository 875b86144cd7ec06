ALTER TABLE "messages" ADD COLUMN IF NOT EXISTS "client_key" uuid;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "messages_conversation_author_seq_idx" ON "messages" USING btree ("conversation_id","author_user_id","seq") WHERE "messages"."deleted_at" is null;
-- Hand-written note: a nullable column with no default (no rewrite: earlier messages have no key)
-- and an index on columns every row already has, so nothing to back-fill. The migrations run in
-- one transaction, so the index cannot be built CONCURRENTLY here: the build reads the whole table
-- and holds a SHARE lock on messages until the commit (reads go on; sends, edits and erasures
-- wait). On a big table, build it first with CREATE INDEX CONCURRENTLY under this exact name and
-- definition: IF NOT EXISTS then skips it.
