ALTER TABLE "conversations" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "language" text;