-- 'Share with a friend' per couple: one link slot per plan let the other couple (whom a safety
-- link is about) replace or stop the sharer's link. The links that still work move over.
CREATE TABLE "plan_shares" (
	"plan_id" uuid NOT NULL,
	"couple_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_shares_plan_id_couple_id_pk" PRIMARY KEY("plan_id","couple_id"),
	CONSTRAINT "plan_shares_token_hash_key" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "plans" DROP CONSTRAINT "plans_share_token_hash_key";--> statement-breakpoint
ALTER TABLE "plans" DROP CONSTRAINT "plans_share_couple_id_couples_id_fk";
--> statement-breakpoint
ALTER TABLE "plan_shares" ADD CONSTRAINT "plan_shares_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_shares" ADD CONSTRAINT "plan_shares_couple_id_couples_id_fk" FOREIGN KEY ("couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "plan_shares" ("plan_id", "couple_id", "token_hash")
SELECT "id", "share_couple_id", "share_token_hash" FROM "plans"
WHERE "share_token_hash" IS NOT NULL AND "share_couple_id" IS NOT NULL AND "cancelled_at" IS NULL;--> statement-breakpoint
ALTER TABLE "plans" DROP COLUMN "share_token_hash";--> statement-breakpoint
ALTER TABLE "plans" DROP COLUMN "share_couple_id";