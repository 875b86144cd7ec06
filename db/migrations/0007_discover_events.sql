CREATE TABLE "discover_dismissals" (
	"couple_id" uuid NOT NULL,
	"dismissed_couple_id" uuid NOT NULL,
	"hidden_until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discover_dismissals_couple_id_dismissed_couple_id_pk" PRIMARY KEY("couple_id","dismissed_couple_id")
);
--> statement-breakpoint
CREATE TABLE "event_drafts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"couple_id" uuid NOT NULL,
	"created_by_user_id" uuid,
	"title" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"place_id" text NOT NULL,
	"place_name" text NOT NULL,
	"capacity" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"description" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events_waitlist" (
	"couple_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "discover_dismissals" ADD CONSTRAINT "discover_dismissals_couple_id_couples_id_fk" FOREIGN KEY ("couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discover_dismissals" ADD CONSTRAINT "discover_dismissals_dismissed_couple_id_couples_id_fk" FOREIGN KEY ("dismissed_couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_drafts" ADD CONSTRAINT "event_drafts_couple_id_couples_id_fk" FOREIGN KEY ("couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_drafts" ADD CONSTRAINT "event_drafts_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events_waitlist" ADD CONSTRAINT "events_waitlist_couple_id_couples_id_fk" FOREIGN KEY ("couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events_waitlist" ADD CONSTRAINT "events_waitlist_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "discover_dismissals_dismissed_idx" ON "discover_dismissals" USING btree ("dismissed_couple_id");--> statement-breakpoint
CREATE INDEX "event_drafts_couple_idx" ON "event_drafts" USING btree ("couple_id","created_at");--> statement-breakpoint
CREATE INDEX "locations_point_gist_idx" ON "locations" USING gist (point("longitude", "latitude"));