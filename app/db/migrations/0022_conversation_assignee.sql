ALTER TABLE "channels" ADD COLUMN "default_assignee_id" uuid;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "assignee_id" uuid;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_default_assignee_id_users_id_fk" FOREIGN KEY ("default_assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversations_organization_assignee_activity_idx" ON "conversations" USING btree ("organization_id","assignee_id","status",("state" = 'needs_attention') desc nulls first,"last_message_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE assignee_id is not null;--> statement-breakpoint
-- A conversation that comes to need a person (a handoff, a failed reply, a message no agent answers) goes to its
-- channel's default assignee when nobody has it yet; with no default it stays unassigned (issue 33, ADR 057).
-- The WHEN clause keeps the AI's ordinary updates from calling the function at all.
CREATE FUNCTION "conversations_assign_default"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."assignee_id" := (SELECT "default_assignee_id" FROM "channels" WHERE "id" = NEW."channel_id");
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "conversations_assign_default" BEFORE UPDATE OF "attention_reason" ON "conversations"
FOR EACH ROW WHEN (OLD."attention_reason" IS NULL AND NEW."attention_reason" IS NOT NULL AND NEW."assignee_id" IS NULL)
EXECUTE FUNCTION "conversations_assign_default"();
--> statement-breakpoint
-- A member who leaves (or is removed) no longer has the organization's conversations, nor its channels' default.
CREATE FUNCTION "memberships_release_assignments"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "conversations" SET "assignee_id" = NULL
  WHERE "organization_id" = OLD."organization_id" AND "assignee_id" = OLD."user_id";
  UPDATE "channels" SET "default_assignee_id" = NULL
  WHERE "organization_id" = OLD."organization_id" AND "default_assignee_id" = OLD."user_id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "memberships_release_assignments" AFTER DELETE ON "memberships"
FOR EACH ROW EXECUTE FUNCTION "memberships_release_assignments"();
