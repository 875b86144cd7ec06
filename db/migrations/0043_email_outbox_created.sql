-- The outbox by age (lib/mail/outbox.ts): the due work takes e-mails past EMAIL_KEPT_DAYS, a bounded
-- batch a run, and finds the reminders' e-mails its own transaction queued, without reading the whole outbox.
CREATE INDEX "email_outbox_created_idx" ON "email_outbox" USING btree ("created_at");
