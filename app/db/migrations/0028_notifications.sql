CREATE TABLE "notification_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"notification_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"medium" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notification_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" uuid NOT NULL,
	"event" text NOT NULL,
	"conversation_id" uuid,
	"channel_id" uuid,
	"user_id" uuid,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"choices" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"quiet_start" integer,
	"quiet_end" integer,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"event" text NOT NULL,
	"reason" text,
	"conversation_id" uuid,
	"channel_id" uuid,
	"in_app" boolean NOT NULL,
	"event_count" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "assigned_by" uuid;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_events" ADD CONSTRAINT "notification_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_events" ADD CONSTRAINT "notification_events_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_events" ADD CONSTRAINT "notification_events_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_events" ADD CONSTRAINT "notification_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_deliveries_once_idx" ON "notification_deliveries" USING btree ("notification_id","medium");--> statement-breakpoint
CREATE INDEX "notification_deliveries_due_idx" ON "notification_deliveries" USING btree ("due_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "notification_events_pending_idx" ON "notification_events" USING btree ("id") WHERE processed_at is null;--> statement-breakpoint
CREATE INDEX "notifications_user_list_idx" ON "notifications" USING btree ("user_id","organization_id","updated_at" DESC NULLS FIRST) WHERE in_app;--> statement-breakpoint
CREATE INDEX "notifications_user_unread_idx" ON "notifications" USING btree ("user_id","organization_id") WHERE in_app and read_at is null;--> statement-breakpoint
CREATE INDEX "notifications_user_conversation_idx" ON "notifications" USING btree ("user_id","conversation_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_assigned_by_users_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- What a member may be told of (docs/decisions/068), written in the statement that made it happen, whichever
-- path did it: the reply pipeline's handoff or failure, a person's assignment, the customer's next message (its
-- own time: Telegram's dates are whole seconds), the
-- health check. The worker is woken to fan it out; its 10-second look catches a lost wake-up.
CREATE FUNCTION "notification_events_of_conversation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."attention_reason" IS NOT NULL AND OLD."attention_reason" IS DISTINCT FROM NEW."attention_reason" THEN
    INSERT INTO "notification_events" ("organization_id", "event", "conversation_id", "channel_id", "reason")
    VALUES (NEW."organization_id", 'needs_attention', NEW."id", NEW."channel_id", NEW."attention_reason");
  ELSIF NEW."ai_paused_at" IS NOT NULL AND NEW."assignee_id" IS NOT NULL AND NEW."last_message_direction" = 'inbound'
    AND NEW."last_message_at" IS DISTINCT FROM OLD."last_message_at" THEN
    INSERT INTO "notification_events" ("organization_id", "event", "conversation_id", "channel_id", "user_id")
    VALUES (NEW."organization_id", 'customer_wrote', NEW."id", NEW."channel_id", NEW."assignee_id");
  END IF;
  -- Nobody is told of what they did themselves.
  IF NEW."assignee_id" IS NOT NULL AND OLD."assignee_id" IS DISTINCT FROM NEW."assignee_id"
    AND NEW."assigned_by" IS DISTINCT FROM NEW."assignee_id" THEN
    INSERT INTO "notification_events" ("organization_id", "event", "conversation_id", "channel_id", "user_id")
    VALUES (NEW."organization_id", 'assigned', NEW."id", NEW."channel_id", NEW."assignee_id");
  END IF;
  PERFORM pg_notify('notification_events', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The WHEN keeps the AI's own traffic (every answer and message updates the row) off the function.
CREATE TRIGGER "conversations_notification_events" AFTER UPDATE ON "conversations"
FOR EACH ROW WHEN (
  (NEW."attention_reason" IS NOT NULL AND OLD."attention_reason" IS DISTINCT FROM NEW."attention_reason")
  OR (NEW."assignee_id" IS NOT NULL AND OLD."assignee_id" IS DISTINCT FROM NEW."assignee_id")
  OR (NEW."ai_paused_at" IS NOT NULL AND NEW."assignee_id" IS NOT NULL AND NEW."last_message_direction" = 'inbound'
    AND NEW."last_message_at" IS DISTINCT FROM OLD."last_message_at")
) EXECUTE FUNCTION "notification_events_of_conversation"();
--> statement-breakpoint
CREATE FUNCTION "notification_events_of_channel"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "notification_events" ("organization_id", "event", "channel_id", "reason")
  VALUES (NEW."organization_id", 'channel_attention', NEW."id", COALESCE(NEW."health_problem", 'token_invalid'));
  PERFORM pg_notify('notification_events', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "channels_notification_events" AFTER UPDATE ON "channels"
FOR EACH ROW WHEN (NEW."organization_id" IS NOT NULL AND (
  (NEW."health_problem" IS NOT NULL AND OLD."health_problem" IS DISTINCT FROM NEW."health_problem")
  OR (NEW."status" = 'error' AND OLD."status" IS DISTINCT FROM 'error')
)) EXECUTE FUNCTION "notification_events_of_channel"();
