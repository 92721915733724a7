ALTER TABLE "conversations" ADD COLUMN "snoozed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "needed_person" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "auto_resolve_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
CREATE INDEX "conversations_snoozed_until_idx" ON "conversations" USING btree ("snoozed_until") WHERE status = 'snoozed';--> statement-breakpoint
CREATE INDEX "conversations_organization_resolved_idx" ON "conversations" USING btree ("organization_id","resolved_at") WHERE status = 'resolved';--> statement-breakpoint
-- Attention raised (a handoff, a failed reply, a message no agent answers): a person was needed, and the
-- conversation goes to its channel's default assignee when nobody has it yet (0022's rule, now with the mark).
DROP TRIGGER "conversations_assign_default" ON "conversations";
--> statement-breakpoint
DROP FUNCTION "conversations_assign_default"();
--> statement-breakpoint
CREATE FUNCTION "conversations_attention_raised"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."needed_person" := true;
  IF NEW."assignee_id" IS NULL THEN
    NEW."assignee_id" := (SELECT "default_assignee_id" FROM "channels" WHERE "id" = NEW."channel_id");
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "conversations_attention_raised" BEFORE UPDATE OF "attention_reason" ON "conversations"
FOR EACH ROW WHEN (OLD."attention_reason" IS NULL AND NEW."attention_reason" IS NOT NULL)
EXECUTE FUNCTION "conversations_attention_raised"();
--> statement-breakpoint
-- The conversations so far: those that need attention, are taken over, or have a person's message.
UPDATE "conversations" c SET "needed_person" = true
WHERE c."attention_reason" IS NOT NULL OR c."ai_paused_at" IS NOT NULL OR EXISTS (
  SELECT 1 FROM "messages" m WHERE m."conversation_id" = c."id" AND m."author_user_id" IS NOT NULL
);
