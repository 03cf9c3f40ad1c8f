ALTER TABLE "context_chunks" DROP COLUMN "id";--> statement-breakpoint
ALTER TABLE "context_rows" DROP COLUMN "id";--> statement-breakpoint
DROP INDEX "context_chunks_item_idx";--> statement-breakpoint
DROP INDEX "context_rows_item_idx";--> statement-breakpoint
ALTER TABLE "context_chunks" ADD CONSTRAINT "context_chunks_pkey" PRIMARY KEY("item_id","position");--> statement-breakpoint
ALTER TABLE "context_rows" ADD CONSTRAINT "context_rows_pkey" PRIMARY KEY("item_id","position");--> statement-breakpoint
ALTER TABLE "context_chunks" ALTER COLUMN "tsv" DROP EXPRESSION;--> statement-breakpoint
-- Hand-written below (drizzle has neither triggers nor table storage parameters); see
-- db/schema/context.ts. A chunk's tsvector is to_tsvector('simple', text), set here unless the
-- writer brought it (computed by PostgreSQL with that same expression on another connection).
CREATE FUNCTION "context_chunks_tsv"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.tsv IS NULL OR (TG_OP = 'UPDATE' AND NEW.text IS DISTINCT FROM OLD.text) THEN
    NEW.tsv := to_tsvector('simple'::regconfig, NEW.text);
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "context_chunks_tsv" BEFORE INSERT OR UPDATE ON "context_chunks"
  FOR EACH ROW EXECUTE FUNCTION "context_chunks_tsv"();--> statement-breakpoint
-- A chunk and its tsvector (~2.5 kB) are stored inline and uncompressed rather than compressed on
-- every write and decompressed for every ranking.
ALTER TABLE "context_chunks" SET (toast_tuple_target = 8160);
