CREATE TABLE "telegram_pollers" (
	"channel_id" uuid PRIMARY KEY NOT NULL,
	"worker_id" text NOT NULL,
	"lease_expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "telegram_pollers" ADD CONSTRAINT "telegram_pollers_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;