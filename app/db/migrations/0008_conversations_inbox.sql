ALTER TABLE "channels" ADD COLUMN "auto_resume_minutes" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "customer_name" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "last_message_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "last_message_text" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "last_message_direction" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "last_inbound_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "ai_paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "ai_paused_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "ai_paused_by" uuid;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "attention_reason" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "attention_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "state" text GENERATED ALWAYS AS (case when attention_reason is not null then 'needs_attention' when ai_paused_at is not null then 'paused' else 'ai' end) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "author_user_id" uuid;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "client_key" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_ai_paused_by_users_id_fk" FOREIGN KEY ("ai_paused_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversations_organization_activity_idx" ON "conversations" USING btree ("organization_id","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "conversations_channel_activity_idx" ON "conversations" USING btree ("channel_id","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "conversations_organization_state_activity_idx" ON "conversations" USING btree ("organization_id","state","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE state <> 'ai';--> statement-breakpoint
CREATE INDEX "conversations_ai_paused_until_idx" ON "conversations" USING btree ("ai_paused_until") WHERE ai_paused_until is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_client_key_idx" ON "messages" USING btree ("conversation_id","client_key") WHERE "messages"."client_key" is not null;--> statement-breakpoint
CREATE INDEX "messages_text_search_idx" ON "messages" USING gin (to_tsvector('simple', "text"));
--> statement-breakpoint
-- The inbox's summary of each conversation (its last message, the customer's last message and name), kept from
-- the messages themselves by one trigger per statement, whatever inserts them (ingest, the reply pipeline, a
-- person's reply): docs/decisions/036.
CREATE FUNCTION "conversations_touch_from_messages"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "conversations" c SET
    "last_message_at" = l."created_at",
    "last_message_text" = left(l."text", 200),
    "last_message_direction" = l."direction",
    "last_inbound_at" = GREATEST(c."last_inbound_at", i."inbound_at"),
    "customer_name" = COALESCE(i."sender_name", c."customer_name")
  FROM (
    SELECT DISTINCT ON ("conversation_id") "conversation_id", "created_at", "text", "direction"
    FROM "new_messages" ORDER BY "conversation_id", "sequence" DESC
  ) l
  LEFT JOIN (
    SELECT "conversation_id", max(COALESCE("platform_sent_at", "created_at")) AS "inbound_at",
      (array_agg("sender_name" ORDER BY "sequence" DESC) FILTER (WHERE "sender_name" IS NOT NULL))[1] AS "sender_name"
    FROM "new_messages" WHERE "direction" = 'inbound' GROUP BY "conversation_id"
  ) i ON i."conversation_id" = l."conversation_id"
  WHERE c."id" = l."conversation_id";
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Live updates: every change of a conversation or of its messages' states is announced on `inbox_events`, so
-- that each web process's listener tells the browsers that show it (docs/decisions/036).
CREATE FUNCTION "inbox_notify_conversation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('inbox_events', json_build_object('organizationId', NEW."organization_id",
    'conversationId', NEW."id")::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "inbox_notify_messages"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('inbox_events', json_build_object('organizationId', m."organization_id",
    'conversationId', m."conversation_id")::text)
  FROM (SELECT DISTINCT "organization_id", "conversation_id" FROM "changed_messages") m;
  RETURN NULL;
END $$;
--> statement-breakpoint
UPDATE "conversations" c SET
  "last_message_at" = l."created_at",
  "last_message_text" = left(l."text", 200),
  "last_message_direction" = l."direction"
FROM (
  SELECT DISTINCT ON ("conversation_id") "conversation_id", "created_at", "text", "direction"
  FROM "messages" ORDER BY "conversation_id", "sequence" DESC
) l
WHERE c."id" = l."conversation_id";
--> statement-breakpoint
UPDATE "conversations" c SET "last_inbound_at" = i."inbound_at", "customer_name" = i."sender_name"
FROM (
  SELECT "conversation_id", max(COALESCE("platform_sent_at", "created_at")) AS "inbound_at",
    (array_agg("sender_name" ORDER BY "sequence" DESC) FILTER (WHERE "sender_name" IS NOT NULL))[1] AS "sender_name"
  FROM "messages" WHERE "direction" = 'inbound' GROUP BY "conversation_id"
) i
WHERE c."id" = i."conversation_id";
--> statement-breakpoint
CREATE TRIGGER "messages_touch_conversations" AFTER INSERT ON "messages"
  REFERENCING NEW TABLE AS "new_messages" FOR EACH STATEMENT EXECUTE FUNCTION "conversations_touch_from_messages"();
--> statement-breakpoint
CREATE TRIGGER "messages_notify_inbox" AFTER UPDATE ON "messages"
  REFERENCING NEW TABLE AS "changed_messages" FOR EACH STATEMENT EXECUTE FUNCTION "inbox_notify_messages"();
--> statement-breakpoint
CREATE TRIGGER "conversations_notify_inbox" AFTER UPDATE ON "conversations"
  FOR EACH ROW EXECUTE FUNCTION "inbox_notify_conversation"();
