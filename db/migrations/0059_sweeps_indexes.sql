CREATE INDEX "sessions_revoked_idx" ON "sessions" USING btree ("revoked_at") WHERE "sessions"."revoked_at" is not null;--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "push_outbox_actor_couple_idx" ON "push_outbox" USING btree ("actor_couple_id") WHERE "push_outbox"."actor_couple_id" is not null;