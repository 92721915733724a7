ALTER TABLE "invitations" ADD COLUMN "email_status" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "email_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "email_due_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "invitations_email_due_idx" ON "invitations" USING btree ("email_due_at") WHERE email_status = 'pending';