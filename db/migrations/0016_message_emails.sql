CREATE TABLE "message_emails" (
	"user_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"up_to_seq" bigint NOT NULL,
	CONSTRAINT "message_emails_user_id_conversation_id_pk" PRIMARY KEY("user_id","conversation_id")
);
--> statement-breakpoint
ALTER TABLE "message_emails" ADD CONSTRAINT "message_emails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_emails" ADD CONSTRAINT "message_emails_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;