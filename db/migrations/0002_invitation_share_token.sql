ALTER TABLE "invitations" ADD COLUMN "share_token_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_share_token_hash_key" ON "invitations" USING btree ("share_token_hash");