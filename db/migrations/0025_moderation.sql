ALTER TYPE "public"."user_role" ADD VALUE 'moderator' BEFORE 'admin';--> statement-breakpoint
CREATE TABLE "banned_emails" (
	"email_hash" text PRIMARY KEY NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "couple_sanctions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"couple_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"ends_at" timestamp (3) with time zone,
	"created_by_user_id" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp (3) with time zone,
	"lifted_at" timestamp (3) with time zone,
	"lifted_by_user_id" uuid,
	"lift_reason" text
);
--> statement-breakpoint
CREATE TABLE "held_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"from_couple_id" uuid NOT NULL,
	"to_couple_id" uuid NOT NULL,
	"sent_by_user_id" uuid,
	"note" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderation_appeals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sanction_id" uuid NOT NULL,
	"user_id" uuid,
	"body" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp (3) with time zone,
	"decided_by_user_id" uuid,
	"decision" text
);
--> statement-breakpoint
CREATE TABLE "moderation_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"moderator_user_id" uuid,
	"action" text NOT NULL,
	"couple_id" uuid,
	"target_type" text,
	"target_id" uuid,
	"reason" text,
	"note" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "couple_sanctions" ADD CONSTRAINT "couple_sanctions_couple_id_couples_id_fk" FOREIGN KEY ("couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "held_requests" ADD CONSTRAINT "held_requests_from_couple_id_couples_id_fk" FOREIGN KEY ("from_couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "held_requests" ADD CONSTRAINT "held_requests_to_couple_id_couples_id_fk" FOREIGN KEY ("to_couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_appeals" ADD CONSTRAINT "moderation_appeals_sanction_id_couple_sanctions_id_fk" FOREIGN KEY ("sanction_id") REFERENCES "public"."couple_sanctions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "couple_sanctions_couple_idx" ON "couple_sanctions" USING btree ("couple_id","created_at");--> statement-breakpoint
CREATE INDEX "couple_sanctions_standing_idx" ON "couple_sanctions" USING btree ("couple_id") WHERE "couple_sanctions"."lifted_at" is null;--> statement-breakpoint
CREATE INDEX "held_requests_from_idx" ON "held_requests" USING btree ("from_couple_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "moderation_appeals_sanction_idx" ON "moderation_appeals" USING btree ("sanction_id");--> statement-breakpoint
CREATE INDEX "moderation_appeals_open_idx" ON "moderation_appeals" USING btree ("created_at") WHERE "moderation_appeals"."decided_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "moderation_log_seq_idx" ON "moderation_log" USING btree ("seq","id");--> statement-breakpoint
CREATE INDEX "moderation_log_moderator_idx" ON "moderation_log" USING btree ("moderator_user_id","seq","id");--> statement-breakpoint
CREATE INDEX "moderation_log_couple_idx" ON "moderation_log" USING btree ("couple_id","seq","id");--> statement-breakpoint
CREATE INDEX "moderation_log_action_idx" ON "moderation_log" USING btree ("action","seq","id");--> statement-breakpoint
-- Hand-written (keep when regenerating): the moderation log is append-only. No route edits or
-- deletes a row, and the database itself refuses UPDATE and DELETE (and TRUNCATE) on the table.
CREATE FUNCTION moderation_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'moderation_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER moderation_log_no_update_or_delete BEFORE UPDATE OR DELETE ON "moderation_log"
  FOR EACH ROW EXECUTE FUNCTION moderation_log_append_only();--> statement-breakpoint
CREATE TRIGGER moderation_log_no_truncate BEFORE TRUNCATE ON "moderation_log"
  FOR EACH STATEMENT EXECUTE FUNCTION moderation_log_append_only();
