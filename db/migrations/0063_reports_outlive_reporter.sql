ALTER TABLE "reports" DROP CONSTRAINT "reports_reporter_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "reports" DROP CONSTRAINT "reports_reporter_couple_id_couples_id_fk";
--> statement-breakpoint
ALTER TABLE "reports" ALTER COLUMN "reporter_user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ALTER COLUMN "reporter_couple_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_user_id_users_id_fk" FOREIGN KEY ("reporter_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_couple_id_couples_id_fk" FOREIGN KEY ("reporter_couple_id") REFERENCES "public"."couples"("id") ON DELETE set null ON UPDATE no action;