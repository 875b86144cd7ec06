CREATE TABLE "directory_common_ranks" (
	"couple_id" uuid PRIMARY KEY NOT NULL,
	"viewer_mask" bigint NOT NULL,
	"couple_ids" uuid[] NOT NULL,
	"floor_common" integer,
	"floor_id" uuid,
	"computed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "directory_common_ranks" ADD CONSTRAINT "directory_common_ranks_couple_id_couples_id_fk" FOREIGN KEY ("couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;