-- The people an e-mail names or quotes besides its recipient (who reacted, whose messages it
-- quotes, who invited): deleting an account takes the e-mails about the person too. GIN, as the
-- deletion asks which rows hold one id.
ALTER TABLE "email_outbox" ADD COLUMN "about_user_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
CREATE INDEX "email_outbox_about_idx" ON "email_outbox" USING gin ("about_user_ids");