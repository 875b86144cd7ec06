-- Who acted, on a push still waiting (its words name them): it goes with their account (lib/account/deletion.ts).
ALTER TABLE "push_outbox" ADD COLUMN "actor_user_id" uuid;--> statement-breakpoint
ALTER TABLE "push_outbox" ADD CONSTRAINT "push_outbox_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "push_outbox_actor_idx" ON "push_outbox" USING btree ("actor_user_id") WHERE "push_outbox"."actor_user_id" is not null;