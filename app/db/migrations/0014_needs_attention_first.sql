DROP INDEX "conversations_organization_activity_idx";--> statement-breakpoint
DROP INDEX "conversations_channel_activity_idx";--> statement-breakpoint
CREATE INDEX "conversations_organization_activity_idx" ON "conversations" USING btree ("organization_id",("state" = 'needs_attention') desc nulls first,"last_message_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "conversations_channel_activity_idx" ON "conversations" USING btree ("channel_id",("state" = 'needs_attention') desc nulls first,"last_message_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);