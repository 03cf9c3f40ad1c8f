CREATE TABLE "context_item_terms" (
	"item_id" uuid NOT NULL,
	"app_id" uuid NOT NULL,
	"term" text NOT NULL,
	"chunks" integer NOT NULL,
	CONSTRAINT "context_item_terms_pkey" PRIMARY KEY("item_id","term")
);
--> statement-breakpoint
ALTER TABLE "context_chunks" ADD COLUMN "tokens" integer;--> statement-breakpoint
ALTER TABLE "context_items" ADD COLUMN "chunk_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "context_items" ADD COLUMN "token_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "context_item_terms_term_idx" ON "context_item_terms" USING btree ("term","app_id","item_id","chunks");--> statement-breakpoint
-- Hand-written from here (drizzle has no functions or triggers); see db/schema/context.ts.
-- A tsvector's tokens: its positions (a lexeme stored without any counts once).
CREATE FUNCTION "tsvector_tokens"(tsvector) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
  $$ SELECT coalesce(sum(coalesce(array_length(positions, 1), 1)), 0)::integer FROM unnest($1) $$;--> statement-breakpoint
-- The trigger of migrations 0009 and 0017 sets tokens with tsv, unless the writer brought both.
CREATE OR REPLACE FUNCTION "context_chunks_tsv"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.tsv IS NULL OR (TG_OP = 'UPDATE' AND NEW.text IS DISTINCT FROM OLD.text) THEN
    NEW.tsv := to_tsvector('app_search'::regconfig, NEW.text);
    NEW.tokens := NULL;
  END IF;
  IF NEW.tokens IS NULL THEN
    NEW.tokens := tsvector_tokens(NEW.tsv);
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
UPDATE "context_chunks" SET "tokens" = tsvector_tokens("tsv");--> statement-breakpoint
UPDATE "context_items" i SET "chunk_count" = s.n, "token_count" = s.t
  FROM (SELECT "item_id", count(*)::integer AS n, coalesce(sum("tokens"), 0)::integer AS t
        FROM "context_chunks" GROUP BY "item_id") s
  WHERE s."item_id" = i."id";--> statement-breakpoint
INSERT INTO "context_item_terms" ("item_id", "app_id", "term", "chunks")
  SELECT c."item_id", min(c."app_id"::text)::uuid, t, count(*)::integer
  FROM "context_chunks" c CROSS JOIN unnest(tsvector_to_array(c."tsv")) t
  GROUP BY c."item_id", t;
--> statement-breakpoint
-- An item's term counts go with it (context_item_terms has no foreign key: see
-- db/schema/context.ts), once per statement, by the deleted items' ids.
CREATE FUNCTION "context_item_terms_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "context_item_terms" t USING "deleted_items" d WHERE t."item_id" = d."id";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "context_items_delete_terms" AFTER DELETE ON "context_items"
  REFERENCING OLD TABLE AS "deleted_items" FOR EACH STATEMENT EXECUTE FUNCTION "context_item_terms_delete"();
