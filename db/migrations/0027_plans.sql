CREATE TABLE "plan_answers" (
	"plan_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"answer" text NOT NULL,
	"answered_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_answers_plan_id_user_id_pk" PRIMARY KEY("plan_id","user_id"),
	CONSTRAINT "plan_answers_answer_check" CHECK ("plan_answers"."answer" in ('going', 'maybe', 'cant'))
);
--> statement-breakpoint
CREATE TABLE "plan_feedback" (
	"plan_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"couple_id" uuid,
	"answer" text NOT NULL,
	"answered_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_feedback_plan_id_user_id_pk" PRIMARY KEY("plan_id","user_id"),
	CONSTRAINT "plan_feedback_answer_check" CHECK ("plan_feedback"."answer" in ('great', 'fine', 'not_for_us', 'went_wrong'))
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"conversation_id" uuid NOT NULL,
	"proposer_user_id" uuid,
	"proposer_couple_id" uuid,
	"title" text NOT NULL,
	"starts_local" text NOT NULL,
	"ends_local" text,
	"time_zone" text NOT NULL,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"ends_at" timestamp (3) with time zone,
	"place_id" text NOT NULL,
	"place_name" text NOT NULL,
	"place_city" text,
	"place_country" text,
	"venue" text,
	"note" text,
	"sequence" integer DEFAULT 0 NOT NULL,
	"cancelled_at" timestamp (3) with time zone,
	"cancel_reason" text,
	"evening_reminded_at" timestamp (3) with time zone,
	"soon_reminded_at" timestamp (3) with time zone,
	"share_token_hash" text,
	"share_couple_id" uuid,
	"feedback_asked_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plans_share_token_hash_key" UNIQUE("share_token_hash"),
	CONSTRAINT "plans_wall_clock_check" CHECK ("plans"."starts_local" ~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$')
);
--> statement-breakpoint
ALTER TABLE "plan_answers" ADD CONSTRAINT "plan_answers_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_answers" ADD CONSTRAINT "plan_answers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_feedback" ADD CONSTRAINT "plan_feedback_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_feedback" ADD CONSTRAINT "plan_feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_feedback" ADD CONSTRAINT "plan_feedback_couple_id_couples_id_fk" FOREIGN KEY ("couple_id") REFERENCES "public"."couples"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_proposer_user_id_users_id_fk" FOREIGN KEY ("proposer_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_proposer_couple_id_couples_id_fk" FOREIGN KEY ("proposer_couple_id") REFERENCES "public"."couples"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_share_couple_id_couples_id_fk" FOREIGN KEY ("share_couple_id") REFERENCES "public"."couples"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_feedback_couple_idx" ON "plan_feedback" USING btree ("couple_id","answer");--> statement-breakpoint
CREATE INDEX "plans_conversation_starts_idx" ON "plans" USING btree ("conversation_id","starts_at");--> statement-breakpoint
CREATE INDEX "plans_open_starts_idx" ON "plans" USING btree ("starts_at") WHERE "plans"."cancelled_at" is null;