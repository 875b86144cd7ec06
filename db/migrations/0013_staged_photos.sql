CREATE TABLE "staged_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "staged_photos" ADD CONSTRAINT "staged_photos_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staged_photos_owner_idx" ON "staged_photos" USING btree ("owner_user_id");--> statement-breakpoint
CREATE INDEX "staged_photos_created_idx" ON "staged_photos" USING btree ("created_at");