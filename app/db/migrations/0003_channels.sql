CREATE TABLE "channels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"platform_name" text NOT NULL,
	"platform_channel_id" text NOT NULL,
	"channel_type" text NOT NULL,
	"access_token_encrypted" text,
	"status" text DEFAULT 'active' NOT NULL,
	"status_reason" text,
	"agent_id" uuid,
	"agent_enabled" boolean DEFAULT true NOT NULL,
	"webhook_subscribed" boolean DEFAULT false NOT NULL,
	"webhook_secret_hash" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "channels_platform_channel_idx" ON "channels" USING btree ("platform_name","platform_channel_id");--> statement-breakpoint
CREATE INDEX "channels_organization_idx" ON "channels" USING btree ("organization_id");