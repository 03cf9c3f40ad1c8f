-- Hand-written (drizzle has no text search configurations); see db/schema/context.ts.
-- app_search: PostgreSQL's 'simple' configuration (no stemming: any language matches word for
-- word) whose dictionary drops English stop words (the, of, and, in, ...; the stop list PostgreSQL
-- ships in its tsearch_data). Those words are most of a text's words and say nothing of what it is
-- about: in the chunks' index they made the largest posting lists, slow to write and, in a query,
-- slow to read and no help to ranking (an OR query's "in" matched nearly every chunk).
CREATE TEXT SEARCH DICTIONARY "app_search_words" (TEMPLATE = pg_catalog.simple, STOPWORDS = english);--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION "app_search" (COPY = pg_catalog.simple);--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION "app_search" ALTER MAPPING REPLACE pg_catalog.simple WITH "app_search_words";--> statement-breakpoint
CREATE OR REPLACE FUNCTION "context_chunks_tsv"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.tsv IS NULL OR (TG_OP = 'UPDATE' AND NEW.text IS DISTINCT FROM OLD.text) THEN
    NEW.tsv := to_tsvector('app_search'::regconfig, NEW.text);
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
UPDATE "context_chunks" SET "tsv" = to_tsvector('app_search'::regconfig, "text");
