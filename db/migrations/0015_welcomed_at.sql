ALTER TABLE "users" ADD COLUMN "welcomed_at" timestamp with time zone;--> statement-breakpoint
-- Hand-written: people whose couple was complete before this column existed have opened their dashboard already.
UPDATE "users" SET "welcomed_at" = "created_at"
WHERE "welcomed_at" IS NULL AND "id" IN (
  SELECT "partner1_id" FROM "couples" WHERE "partner_a_completed_at" IS NOT NULL
  UNION ALL
  SELECT "partner2_id" FROM "couples" WHERE "partner_a_completed_at" IS NOT NULL AND "partner2_id" IS NOT NULL
);
