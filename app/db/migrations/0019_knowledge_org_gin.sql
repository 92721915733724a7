-- PostgreSQL only (docs/decisions/049): one GIN index of (organization, vector) and one of (organization, word
-- trigrams), through btree_gin, so that an organization's search reads only its own entries. PGlite is left out:
-- with btree_gin loaded beside pg_trgm and fuzzystrmatch, its next statement after a typo lookup never returns.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'btree_gin') THEN
    CREATE EXTENSION IF NOT EXISTS btree_gin;
    CREATE INDEX IF NOT EXISTS knowledge_passages_org_search_idx
      ON knowledge_passages USING gin (organization_id, search_vector);
    CREATE INDEX IF NOT EXISTS knowledge_words_org_trigram_idx
      ON knowledge_words USING gin (organization_id, word gin_trgm_ops);
  END IF;
END
$$;
