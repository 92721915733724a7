ALTER TABLE "agent_runs" ADD COLUMN "handoff_reason" text;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "burst_wait_seconds" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "handoff_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "handoff_message" text DEFAULT 'I''m handing you over to a person from our team. They will reply here as soon as they can.' NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "fallback_message" text DEFAULT 'Sorry, I can''t answer right now — a person will get back to you.' NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "unreadable_message" text DEFAULT 'I can only read text messages for now' NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "office_hours" jsonb;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "out_of_hours_notice_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "kind" text DEFAULT 'text' NOT NULL;