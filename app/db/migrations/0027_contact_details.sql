ALTER TABLE "conversations" ADD COLUMN "customer_handle" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "customer_language" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "customer_notes" text DEFAULT '' NOT NULL;