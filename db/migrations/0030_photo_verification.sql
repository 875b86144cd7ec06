CREATE TABLE "photo_verifications" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"couple_id" uuid NOT NULL,
	"status" text DEFAULT 'not_started' NOT NULL,
	"pose" text NOT NULL,
	"selfie_key" text,
	"submitted_at" timestamp (3) with time zone,
	"decided_at" timestamp (3) with time zone,
	"refusal_reason" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "couples" ADD COLUMN "photo_verified_partners" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "photo_verifications" ADD CONSTRAINT "photo_verifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_verifications" ADD CONSTRAINT "photo_verifications_couple_id_couples_id_fk" FOREIGN KEY ("couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "photo_verifications_pending_idx" ON "photo_verifications" USING btree ("submitted_at","user_id") WHERE "photo_verifications"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "photo_verifications_couple_verified_idx" ON "photo_verifications" USING btree ("couple_id") WHERE "photo_verifications"."status" = 'verified';--> statement-breakpoint
CREATE INDEX "couples_discoverable_photo_verified_idx" ON "couples" USING btree ("created_at","id") WHERE "couples"."status" = 'active' and "couples"."is_visible" and "couples"."photo_verified_partners" > 0;--> statement-breakpoint
-- couples.photo_verified_partners: how many of the couple's partners are photo verified, kept from
-- photo_verifications on every change (a row deleted with its account too), so the badges and the
-- directory's filter read one column of the couple's row.
CREATE FUNCTION photo_verifications_count_trg() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.couple_id ELSE NEW.couple_id END;
BEGIN
  UPDATE public.couples
  SET photo_verified_partners = (
    SELECT count(*) FROM public.photo_verifications v WHERE v.couple_id = changed AND v.status = 'verified'
  )
  WHERE id = changed;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER photo_verifications_count AFTER INSERT OR UPDATE OF status OR DELETE ON photo_verifications
  FOR EACH ROW EXECUTE FUNCTION photo_verifications_count_trg();
