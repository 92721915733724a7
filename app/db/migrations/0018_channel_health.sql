ALTER TABLE "channels" ADD COLUMN "health_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "health_problem" text;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "health_detail" text;--> statement-breakpoint
CREATE INDEX "messages_channel_outbound_idx" ON "messages" USING btree ("channel_id","sequence") WHERE "messages"."direction" = 'outbound';