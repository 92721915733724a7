CREATE TABLE "telegram_alert_links" (
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"code_hash" text,
	"code_expires_at" timestamp with time zone,
	"chat_id" text,
	"telegram_name" text,
	"linked_at" timestamp with time zone,
	"welcomed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "telegram_alert_links_organization_id_user_id_pk" PRIMARY KEY("organization_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "member_chat_ids" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "telegram_alert_links" ADD CONSTRAINT "telegram_alert_links_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_alert_links" ADD CONSTRAINT "telegram_alert_links_membership_fk" FOREIGN KEY ("organization_id","user_id") REFERENCES "public"."memberships"("organization_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_alert_links_code_idx" ON "telegram_alert_links" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "telegram_alert_links_channel_idx" ON "telegram_alert_links" USING btree ("channel_id");--> statement-breakpoint
-- The channel's member chats (docs/decisions/069) follow its links, whatever changed them: a member pressed Start,
-- got a new code, unlinked or left. The receivers read them with the channel they load anyway.
CREATE FUNCTION "channel_member_chats"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  affected uuid[] := CASE TG_OP
    WHEN 'INSERT' THEN ARRAY[NEW."channel_id"]
    WHEN 'DELETE' THEN ARRAY[OLD."channel_id"]
    ELSE ARRAY[OLD."channel_id", NEW."channel_id"] END;
BEGIN
  UPDATE "channels" AS c SET "member_chat_ids" = ARRAY(
    SELECT DISTINCT l."chat_id" FROM "telegram_alert_links" AS l
    WHERE l."channel_id" = c."id" AND l."chat_id" IS NOT NULL ORDER BY 1)
  WHERE c."id" = ANY(affected);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "telegram_alert_links_member_chats" AFTER INSERT OR DELETE OR UPDATE OF "chat_id", "channel_id"
ON "telegram_alert_links" FOR EACH ROW EXECUTE FUNCTION "channel_member_chats"();
