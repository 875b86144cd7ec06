CREATE TABLE "discover_suggestions" (
	"couple_id" uuid PRIMARY KEY NOT NULL,
	"candidate_ids" uuid[] NOT NULL,
	"near_ids" uuid[],
	"inputs_key" text NOT NULL,
	"computed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "discover_suggestions" ADD CONSTRAINT "discover_suggestions_couple_id_couples_id_fk" FOREIGN KEY ("couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;