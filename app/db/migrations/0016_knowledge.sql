-- Trigram similarity and edit distance for the knowledge search's typo correction (docs/decisions/043): trusted
-- extensions, in PGlite's contrib and in Debian's PostgreSQL.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;--> statement-breakpoint
CREATE TABLE "knowledge_lexemes" (
	"organization_id" uuid NOT NULL,
	"lexeme" text NOT NULL,
	"passages" integer NOT NULL,
	CONSTRAINT "knowledge_lexemes_organization_id_lexeme_pk" PRIMARY KEY("organization_id","lexeme")
);
--> statement-breakpoint
CREATE TABLE "knowledge_passages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"heading_path" text[] DEFAULT '{}'::text[] NOT NULL,
	"text" text NOT NULL,
	"url" text,
	"search_vector" "tsvector" NOT NULL,
	"embedding" real[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"failure_reason" text,
	"question" text,
	"body" text,
	"file_name" text,
	"file_type" text,
	"file_data" "bytea",
	"url" text,
	"crawl" boolean DEFAULT false NOT NULL,
	"max_pages" integer DEFAULT 1 NOT NULL,
	"pages" jsonb,
	"language" text,
	"size_bytes" integer DEFAULT 0 NOT NULL,
	"passage_count" integer DEFAULT 0 NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"processed_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_words" (
	"organization_id" uuid NOT NULL,
	"word" text NOT NULL,
	CONSTRAINT "knowledge_words_organization_id_word_pk" PRIMARY KEY("organization_id","word")
);
--> statement-breakpoint
ALTER TABLE "agent_runs" ADD COLUMN "knowledge" jsonb;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "knowledge_mode" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "knowledge_source_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "knowledge_passages" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "knowledge_min_relevance" double precision DEFAULT 0.2 NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "knowledge_no_answer_message" text DEFAULT 'I don''t have that information, so I''ve asked a person from our team to help. They will reply here soon.' NOT NULL;--> statement-breakpoint
ALTER TABLE "knowledge_lexemes" ADD CONSTRAINT "knowledge_lexemes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_passages" ADD CONSTRAINT "knowledge_passages_source_id_knowledge_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."knowledge_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_passages" ADD CONSTRAINT "knowledge_passages_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_sources" ADD CONSTRAINT "knowledge_sources_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_sources" ADD CONSTRAINT "knowledge_sources_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_words" ADD CONSTRAINT "knowledge_words_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "knowledge_passages_search_idx" ON "knowledge_passages" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "knowledge_passages_source_idx" ON "knowledge_passages" USING btree ("source_id","position");--> statement-breakpoint
CREATE INDEX "knowledge_passages_organization_idx" ON "knowledge_passages" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "knowledge_sources_organization_idx" ON "knowledge_sources" USING btree ("organization_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "knowledge_words_trigram_idx" ON "knowledge_words" USING gin ("word" gin_trgm_ops);