-- Stored files nothing shows whose removal storage has not confirmed (lib/images/undeleted.ts): the due work tries again.
CREATE TABLE "undeleted_images" (
	"key" text PRIMARY KEY NOT NULL,
	"retry_at" timestamp with time zone DEFAULT now() NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "undeleted_images_retry_idx" ON "undeleted_images" USING btree ("retry_at");