ALTER TABLE "conversations" ADD COLUMN "status" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "resolved_by" uuid;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
-- The customer's next message opens a resolved conversation again: the summary trigger (0015) sets the status
-- with the rest of the summary; the batch ingest sets it in its own upsert (issue 33).
CREATE OR REPLACE FUNCTION "conversations_touch_from_messages"() RETURNS trigger LANGUAGE plpgsql
SET enable_seqscan = off AS $$
BEGIN
  UPDATE "conversations" c SET
    "last_message_at" = l."created_at",
    "last_message_text" = left(l."text", 200),
    "last_message_direction" = l."direction",
    "last_inbound_at" = GREATEST(c."last_inbound_at", i."inbound_at"),
    "customer_name" = COALESCE(i."sender_name", c."customer_name"),
    "status" = CASE WHEN i."inbound_at" IS NOT NULL THEN 'open' ELSE c."status" END,
    "search_vector" = CASE WHEN length(COALESCE(c."search_vector", '')) >= 40000 THEN c."search_vector"
      ELSE strip(COALESCE(c."search_vector", '') || to_tsvector('simple', w."words")) END
  FROM (
    SELECT DISTINCT ON ("conversation_id") "conversation_id", "created_at", "text", "direction"
    FROM "new_messages" ORDER BY "conversation_id", "sequence" DESC
  ) l
  JOIN (
    SELECT "conversation_id", string_agg("text", ' ') AS "words" FROM "new_messages" GROUP BY "conversation_id"
  ) w ON w."conversation_id" = l."conversation_id"
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
  RETURN NULL;
END $$;
