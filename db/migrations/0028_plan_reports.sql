-- A plan can be reported ('Something went wrong' after the meetup).
ALTER TYPE "public"."report_target_type" ADD VALUE 'plan';--> statement-breakpoint
-- A place typed by hand while the place search is down has no id (its zone is chosen with it).
ALTER TABLE "plans" ALTER COLUMN "place_id" DROP NOT NULL;
