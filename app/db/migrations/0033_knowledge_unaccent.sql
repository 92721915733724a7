-- Knowledge search beyond English (issue 36): customers leave out accents ("envio", "informacao", "Ruckgabe",
-- "елка"), so a passage's vector also holds the lexemes of its words without them, where those differ (stemming
-- "informação" gives 'inform', "informacao" 'informaca'). The question's words are read both ways too.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE OR REPLACE FUNCTION knowledge_vector(config regconfig, body text, weight "char") RETURNS tsvector
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT setweight(v || ts_delete(to_tsvector(config, unaccent(body)), tsvector_to_array(v)), weight)
  FROM (SELECT to_tsvector(config, body) AS v) s
$$;--> statement-breakpoint
UPDATE knowledge_passages p
SET search_vector = knowledge_vector(s.language::regconfig,
    s.title || ' ' || array_to_string(p.heading_path, ' '), 'A')
  || knowledge_vector(s.language::regconfig, p.text, 'D')
FROM knowledge_sources s
WHERE s.id = p.source_id AND s.language IS NOT NULL;--> statement-breakpoint
DELETE FROM knowledge_lexemes;--> statement-breakpoint
INSERT INTO knowledge_lexemes (organization_id, lexeme, passages)
SELECT p.organization_id, l.lexeme, count(*)::int
FROM knowledge_passages p CROSS JOIN unnest(tsvector_to_array(p.search_vector)) AS l(lexeme)
GROUP BY p.organization_id, l.lexeme;
