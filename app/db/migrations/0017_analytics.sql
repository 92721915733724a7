CREATE TABLE "analytics_message_buckets" (
	"organization_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"local_hour" timestamp NOT NULL,
	"received" integer NOT NULL,
	"answered_by_ai" integer NOT NULL,
	"answered_by_person" integer NOT NULL,
	"failed" integer NOT NULL,
	"paused" integer NOT NULL,
	"no_agent" integer NOT NULL,
	"waiting" integer NOT NULL,
	CONSTRAINT "analytics_message_buckets_organization_id_local_hour_channel_id_pk" PRIMARY KEY("organization_id","local_hour","channel_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_reason_buckets" (
	"organization_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"local_hour" timestamp NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"messages" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_response_buckets" (
	"organization_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"local_hour" timestamp NOT NULL,
	"bin" smallint NOT NULL,
	"conversations" integer NOT NULL,
	CONSTRAINT "analytics_response_buckets_organization_id_local_hour_channel_id_bin_pk" PRIMARY KEY("organization_id","local_hour","channel_id","bin")
);
--> statement-breakpoint
CREATE TABLE "analytics_rollup" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"time_zone" text NOT NULL,
	"rolled_until" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_run_buckets" (
	"organization_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"channel_id" uuid,
	"model" text,
	"local_hour" timestamp NOT NULL,
	"prompt_tokens" bigint NOT NULL,
	"completion_tokens" bigint NOT NULL,
	"handoffs" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_runs" ADD COLUMN "channel_id" uuid GENERATED ALWAYS AS (case when context->>'channelId' ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' then (context->>'channelId')::uuid end) STORED;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_message_buckets" ADD CONSTRAINT "analytics_message_buckets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_message_buckets" ADD CONSTRAINT "analytics_message_buckets_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_reason_buckets" ADD CONSTRAINT "analytics_reason_buckets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_reason_buckets" ADD CONSTRAINT "analytics_reason_buckets_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_response_buckets" ADD CONSTRAINT "analytics_response_buckets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_response_buckets" ADD CONSTRAINT "analytics_response_buckets_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_rollup" ADD CONSTRAINT "analytics_rollup_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_run_buckets" ADD CONSTRAINT "analytics_run_buckets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_run_buckets" ADD CONSTRAINT "analytics_run_buckets_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_reason_buckets_organization_hour_idx" ON "analytics_reason_buckets" USING btree ("organization_id","local_hour");--> statement-breakpoint
CREATE INDEX "analytics_run_buckets_organization_hour_idx" ON "analytics_run_buckets" USING btree ("organization_id","local_hour");--> statement-breakpoint
CREATE INDEX "agent_runs_organization_created_idx" ON "agent_runs" USING btree ("organization_id","created_at") WHERE "agent_runs"."test_mode" = false;--> statement-breakpoint
CREATE INDEX "conversations_organization_created_idx" ON "conversations" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_inbound_organization_created_idx" ON "messages" USING btree ("organization_id","created_at") WHERE "messages"."direction" = 'inbound';--> statement-breakpoint
CREATE INDEX "messages_inbound_reason_idx" ON "messages" USING btree ("organization_id","failure_reason","created_at","id") WHERE "messages"."direction" = 'inbound' and "messages"."failure_reason" is not null;