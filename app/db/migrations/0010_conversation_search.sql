ALTER TABLE "conversations" ADD COLUMN "search_vector" "tsvector";--> statement-breakpoint
-- The inbox's search reads one row per conversation instead of its messages (docs/decisions/039): the summary
-- trigger of 0008 now also adds the words of each statement's new messages to their conversation's vector.
-- Past 40,000 distinct words a conversation's vector stops growing (a tsvector holds at most 1 MB of words,
-- and an insert must never fail on it).
CREATE OR REPLACE FUNCTION "conversations_touch_from_messages"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "conversations" c SET
    "last_message_at" = l."created_at",
    "last_message_text" = left(l."text", 200),
    "last_message_direction" = l."direction",
    "last_inbound_at" = GREATEST(c."last_inbound_at", i."inbound_at"),
    "customer_name" = COALESCE(i."sender_name", c."customer_name"),
    "search_vector" = CASE WHEN length(COALESCE(c."search_vector", '')) >= 40000 THEN c."search_vector"
      ELSE strip(COALESCE(c."search_vector", '') || w."words") END
  FROM (
    SELECT DISTINCT ON ("conversation_id") "conversation_id", "created_at", "text", "direction"
    FROM "new_messages" ORDER BY "conversation_id", "sequence" DESC
  ) l
  LEFT JOIN (
    SELECT "conversation_id", max(COALESCE("platform_sent_at", "created_at")) AS "inbound_at",
      (array_agg("sender_name" ORDER BY "sequence" DESC) FILTER (WHERE "sender_name" IS NOT NULL))[1] AS "sender_name"
    FROM "new_messages" WHERE "direction" = 'inbound' GROUP BY "conversation_id"
  ) i ON i."conversation_id" = l."conversation_id"
  JOIN (
    SELECT "conversation_id", to_tsvector('simple', string_agg("text", ' ')) AS "words"
    FROM "new_messages" GROUP BY "conversation_id"
  ) w ON w."conversation_id" = l."conversation_id"
  WHERE c."id" = l."conversation_id";
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The existing messages' words, without announcing every conversation to the live updates.
ALTER TABLE "conversations" DISABLE TRIGGER "conversations_notify_inbox";--> statement-breakpoint
UPDATE "conversations" c SET "search_vector" = w."words"
FROM (
  SELECT m."conversation_id", array_to_tsvector((array_agg(DISTINCT l."lexeme"))[1:40000]) AS "words"
  FROM "messages" m CROSS JOIN LATERAL unnest(to_tsvector('simple', m."text")) l
  GROUP BY m."conversation_id"
) w
WHERE c."id" = w."conversation_id";--> statement-breakpoint
ALTER TABLE "conversations" ENABLE TRIGGER "conversations_notify_inbox";--> statement-breakpoint
CREATE INDEX "conversations_search_idx" ON "conversations" USING gin ("search_vector");--> statement-breakpoint
DROP INDEX "messages_text_search_idx";
