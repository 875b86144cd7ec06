ALTER TABLE "connection_requests" DROP CONSTRAINT "connection_requests_to_couple_id_couples_id_fk";
--> statement-breakpoint
ALTER TABLE "connection_requests" ALTER COLUMN "to_couple_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "connection_requests" ADD CONSTRAINT "connection_requests_to_couple_id_couples_id_fk" FOREIGN KEY ("to_couple_id") REFERENCES "public"."couples"("id") ON DELETE set null ON UPDATE no action;