-- The summary trigger of 0008/0010 leaves alone a conversation whose summary already shows the statement's new
-- messages: the batch ingest writes it in its own conversation upsert, so that each conversation gets one new row
-- version per batch instead of two (docs/decisions/040). Every other insert (the single-message ingest, the
-- reply pipeline, a person's reply, echoes) still has the trigger write it. The words are computed only for the
-- rows it updates. The UPDATE probes the conversations by primary key: its plan is cached per connection, and one
-- made while the table looked small (a new database) read the whole table, every version of every row, at every
-- statement (bench:ingest).
CREATE OR REPLACE FUNCTION "conversations_touch_from_messages"() RETURNS trigger LANGUAGE plpgsql
SET enable_seqscan = off AS $$
BEGIN
  UPDATE "conversations" c SET
    "last_message_at" = l."created_at",
    "last_message_text" = left(l."text", 200),
    "last_message_direction" = l."direction",
    "last_inbound_at" = GREATEST(c."last_inbound_at", i."inbound_at"),
    "customer_name" = COALESCE(i."sender_name", c."customer_name"),
    "search_vector" = CASE WHEN length(COALESCE(c."search_vector", '')) >= 40000 THEN c."search_vector"
      ELSE strip(COALESCE(c."search_vector", '') || (
        SELECT to_tsvector('simple', string_agg(n."text", ' ')) FROM "new_messages" n
        WHERE n."conversation_id" = c."id")) END
  FROM (
    SELECT DISTINCT ON ("conversation_id") "conversation_id", "created_at", "text", "direction"
    FROM "new_messages" ORDER BY "conversation_id", "sequence" DESC
  ) l
  LEFT JOIN (
    SELECT "conversation_id", max(COALESCE("platform_sent_at", "created_at")) AS "inbound_at",
      (array_agg("sender_name" ORDER BY "sequence" DESC) FILTER (WHERE "sender_name" IS NOT NULL))[1] AS "sender_name"
    FROM "new_messages" WHERE "direction" = 'inbound' GROUP BY "conversation_id"
  ) i ON i."conversation_id" = l."conversation_id"
  WHERE c."id" = l."conversation_id"
    -- Already written by the statement's own upsert (the batch ingest): nothing to change.
    AND NOT (
      c."last_message_at" = l."created_at"
      AND c."last_message_text" IS NOT DISTINCT FROM left(l."text", 200)
      AND c."last_message_direction" IS NOT DISTINCT FROM l."direction"
      AND (i."inbound_at" IS NULL OR c."last_inbound_at" >= i."inbound_at")
      AND (i."sender_name" IS NULL OR c."customer_name" IS NOT DISTINCT FROM i."sender_name")
    );
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Live updates (0008) announced once per statement instead of once per row: a batch's upsert updates tens of
-- conversations, each a call of the function (the payloads, one per conversation, are the same).
CREATE FUNCTION "inbox_notify_conversations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('inbox_events', json_build_object('organizationId', c."organization_id",
    'conversationId', c."id")::text)
  FROM (SELECT DISTINCT "organization_id", "id" FROM "changed_conversations") c;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER "conversations_notify_inbox" ON "conversations";--> statement-breakpoint
DROP FUNCTION "inbox_notify_conversation"();--> statement-breakpoint
CREATE TRIGGER "conversations_notify_inbox" AFTER UPDATE ON "conversations"
  REFERENCING NEW TABLE AS "changed_conversations" FOR EACH STATEMENT EXECUTE FUNCTION "inbox_notify_conversations"();
