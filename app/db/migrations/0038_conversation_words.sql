-- The inbox's search words as rows (docs/decisions/077): a conversation's vector of all its words was rewritten,
-- and every one of its words entered again in the GIN index, for each new message, so ingest slowed down as
-- conversations grew (bench:ingest BENCH_HISTORY). A message now adds only the words its conversation lacks.
-- The words in "C" order: a searched word's prefix is then a range of both indexes.
CREATE TABLE "conversation_words" (
	"organization_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"word" text COLLATE "C" NOT NULL,
	CONSTRAINT "conversation_words_conversation_id_word_pk" PRIMARY KEY("conversation_id","word")
);
--> statement-breakpoint
ALTER TABLE "conversation_words" ADD CONSTRAINT "conversation_words_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "conversation_words" ("organization_id", "conversation_id", "word")
SELECT c."organization_id", c."id", w."word"
FROM "conversations" c CROSS JOIN LATERAL unnest(tsvector_to_array(c."search_vector")) AS w("word")
WHERE c."search_vector" IS NOT NULL
ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE INDEX "conversation_words_organization_word_idx" ON "conversation_words" USING btree ("organization_id","word","conversation_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "conversations_touch_from_messages"() RETURNS trigger LANGUAGE plpgsql
SET enable_seqscan = off AS $$
BEGIN
  UPDATE "conversations" c SET
    "last_message_at" = l."created_at",
    "last_message_text" = left(l."text", 200),
    "last_message_direction" = l."direction",
    "last_inbound_at" = GREATEST(c."last_inbound_at", i."inbound_at"),
    "customer_name" = COALESCE(i."sender_name", c."customer_name"),
    "status" = CASE WHEN i."inbound_at" IS NOT NULL THEN 'open' ELSE c."status" END
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
      AND (i."inbound_at" IS NULL OR c."status" = 'open')
    );
  -- The search's words (docs/decisions/077): only those the conversation lacks become rows. In key order, so that
  -- two transactions adding the same words to a conversation wait for each other rather than deadlock.
  INSERT INTO "conversation_words" ("organization_id", "conversation_id", "word")
  SELECT DISTINCT n."organization_id", n."conversation_id", w."word"
  FROM "new_messages" n CROSS JOIN LATERAL unnest(tsvector_to_array(to_tsvector('simple', n."text"))) AS w("word")
  WHERE n."text" <> ''
  ORDER BY 2, 3
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
DROP INDEX "conversations_search_idx";--> statement-breakpoint
ALTER TABLE "conversations" DROP COLUMN "search_vector";
