ALTER TABLE "agents" ADD COLUMN "reply_language" text;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "text_translations" jsonb DEFAULT '{}'::jsonb NOT NULL;