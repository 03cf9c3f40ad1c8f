import { finished } from "node:stream/promises";
import { asc, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { db, type Executor, lockUntilCommit, pool } from "../client";
import { copyJson, copyText } from "../copy-text";
import * as schema from "../schema";
import { type ContextItem, contextChunks, contextItemTerms, contextRows } from "../schema";

// A data source's content: the chunks and rows an ingestion writes (all at once, with COPY, in one
// transaction with the item's status) and reads back. The items themselves are context.ts.

/**
 * Makes one ingestion at a time write an item's chunks and rows, until the transaction ends. Two
 * runs of one item (a job re-run while its first run still writes) would otherwise each delete
 * what they see and insert their own, doubling the chunks; serialized, the second deletes the
 * first's rows, since its statements start after the first committed.
 */
export async function lockItemContent(itemId: string, ex: Executor) {
  await lockUntilCommit(`context-item:${itemId}`, ex);
}

/** Deletes an item's chunks, rows and term counts, before a new ingestion writes its own. */
export async function deleteItemContent(itemId: string, ex: Executor) {
  await ex.delete(contextChunks).where(eq(contextChunks.itemId, itemId));
  await ex.delete(contextRows).where(eq(contextRows.itemId, itemId));
  await ex.delete(contextItemTerms).where(eq(contextItemTerms.itemId, itemId));
}

/**
 * Counts an item's chunks, tokens and terms (how many of its chunks hold each), from the chunks it
 * now has: BM25's statistics (lib/context/retrieve.ts), in the transaction that wrote the chunks.
 * The terms are written in order, so each index grows where it last grew rather than all over.
 */
async function writeItemStatistics(item: Pick<ContextItem, "id" | "appId">, ex: Executor) {
  await ex.execute(sql`
    insert into context_item_terms (item_id, app_id, term, chunks)
    select ${item.id}, ${item.appId}, t, count(*)::integer
    from context_chunks c cross join unnest(tsvector_to_array(c.tsv)) t
    where c.item_id = ${item.id}
    group by t
    order by t`);
  await ex.execute(sql`
    update context_items set chunk_count = s.n, token_count = s.t
    from (select count(*)::integer as n, coalesce(sum(tokens), 0)::integer as t
          from context_chunks where item_id = ${item.id}) s
    where id = ${item.id}`);
}

/** Adds an item's new chunks and rows as they come (see writeItemContent). */
export type ContentWriter = {
  addChunks(chunks: readonly string[]): Promise<void>;
  addRow(row: Record<string, string>): Promise<void>;
  /** Writes what is still buffered and waits for it; call it before the item's status. */
  flush(): Promise<void>;
  /** How many were added so far, written or not. */
  counts(): { chunks: number; rows: number };
};

/**
 * Replaces an item's chunks and rows in one transaction: the item's content lock, its old chunks
 * and rows deleted, then `write` adds the new ones through the writer and may run its own queries
 * on `tx` once it flushed the writer (the item's status, last), and it all commits together: a
 * reader sees the old content or the whole new one, never half, and a run that fails leaves the
 * old one. Runs on a connection of its own from the pool, since the writer sends COPY on it (see
 * copyWriter); `tx` is that connection, so a query on it while batches are under way would have
 * to wait for them.
 */
export async function writeItemContent<T>(
  item: Pick<ContextItem, "id" | "appId">,
  write: (writer: ContentWriter, tx: Executor) => Promise<T>,
): Promise<T> {
  const client = await pool().connect();
  let writer: CopyWriter | undefined;
  let failed = false;
  try {
    return await drizzle(client, { schema }).transaction(async (tx) => {
      await lockItemContent(item.id, tx);
      await deleteItemContent(item.id, tx);
      const w = copyWriter(item, client);
      writer = w;
      try {
        const result = await write(w, tx);
        await w.flush();
        await writeItemStatistics(item, tx);
        return result;
      } catch (err) {
        // The batches under way end first, so that none reaches the connection after the rollback.
        await w.settle();
        throw err;
      }
    });
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    writer?.close();
    // After a failure the connection is not trusted with another query (a COPY cut short, a
    // rollback that failed): it is closed rather than handed back to the pool.
    client.release(failed);
  }
}

// One COPY per batch of about this many characters, sent in pieces of about COPY_PIECE_CHARS,
// with at most BATCHES_IN_FLIGHT batches under way. A statement's fixed cost stays small beside
// its rows (some 300 statements for a 100k-row CSV), and garbage stays young: with batches of
// 1 MB, three under way, V8 collected them late and a worker's peak memory while ingesting an
// 11 MB CSV was 115 MB above idle instead of 60 (the database's work is the same either way).
const COPY_BATCH_CHARS = 128 * 1024;
const COPY_PIECE_CHARS = 32 * 1024;
const BATCHES_IN_FLIGHT = 2;
const COPY_ROWS = "copy context_rows (item_id, app_id, position, data) from stdin";
const COPY_CHUNKS = "copy context_chunks (item_id, app_id, position, text) from stdin";
const COPY_CHUNKS_TSV = "copy context_chunks (item_id, app_id, position, text, tsv, tokens) from stdin";
// A batch's tsvectors and token counts, on the helper connection: by PostgreSQL itself, the
// column's own expression and the function its trigger calls (migrations 0017, 0021).
const CHUNK_TSVECTORS = `
  select v::text as tsv, tsvector_tokens(v) as tokens
  from (select to_tsvector('app_search', t) as v, n
        from json_array_elements_text($1::json) with ordinality as c(t, n)) c
  order by n`;

type CopyWriter = ContentWriter & {
  /** Waits for every batch under way, failed or not (after a failure, before the rollback). */
  settle(): Promise<void>;
  /** Hands the helper connection back. */
  close(): void;
};

/**
 * Writes an item's chunks and rows with COPY FROM STDIN (text format, db/copy-text.ts), each
 * numbered in order, a batch at a time, while the caller prepares the next; a failure is thrown
 * by a later call. A batch is whole before its COPY starts, so a COPY never waits on the caller.
 *
 * The chunks' tsvectors are the largest part of the database's work (to_tsvector was 1.7 s of
 * CPU for the 20k chunks of a 100k-row CSV). Once a source has a full batch of chunks, they are
 * computed by PostgreSQL on a second connection of the pool, while this one writes the previous
 * batches, and written with the chunks; the trigger on context_chunks computes those of smaller
 * sources. That connection only reads, so the content is still written by one transaction.
 */
function copyWriter(item: Pick<ContextItem, "id" | "appId">, client: pg.ClientBase): CopyWriter {
  const prefix = `${item.id}\t${item.appId}\t`;
  let rows = new Pieces();
  let rowCount = 0;
  let chunks: string[] = [];
  let chunkChars = 0;
  let chunkCount = 0;
  let helper: pg.PoolClient | undefined;
  let helperFailed = false;
  const inFlight: Promise<void>[] = [];
  // Everything still under way, on either connection (a settled one leaves, with its result).
  const unsettled = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>) => {
    unsettled.add(p);
    const forget = () => unsettled.delete(p);
    p.then(forget, forget);
  };

  // Each connection runs one statement at a time (pg queues no more): a COPY starts once the
  // one before it ended, and after one failed none does (the transaction is lost anyway).
  let copying: Promise<void> = Promise.resolve();
  let computing: Promise<unknown> = Promise.resolve();
  const copy = (statement: string, pieces: readonly string[]) => {
    copying = copying.then(() => {
      const stream = client.query(copyFrom(statement));
      const done = finished(stream);
      for (const piece of pieces) stream.write(piece);
      stream.end();
      return done;
    });
    return copying;
  };
  // Runs a batch's work once fewer than BATCHES_IN_FLIGHT are under way; the oldest one's failure
  // is thrown here, to the caller.
  const start = async (work: () => Promise<void>) => {
    while (inFlight.length >= BATCHES_IN_FLIGHT) await inFlight.shift();
    const p = work();
    // Awaited by a later start or by flush; until then its failure must not go unhandled.
    p.catch(() => {});
    inFlight.push(p);
    track(p);
  };
  const writeRows = async () => {
    if (rows.length === 0) return;
    const data = rows.done();
    rows = new Pieces();
    await start(() => copy(COPY_ROWS, data));
  };
  const writeChunks = async (full: boolean) => {
    if (chunks.length === 0) return;
    const texts = chunks;
    const first = chunkCount - texts.length;
    chunks = [];
    chunkChars = 0;
    const lines = (tsvs?: readonly { tsv: string; tokens: number }[]) => {
      const data = new Pieces();
      for (let i = 0; i < texts.length; i++) {
        const tsv = tsvs ? `\t${copyText(tsvs[i]!.tsv)}\t${tsvs[i]!.tokens}` : "";
        data.add(`${prefix}${first + i}\t${copyText(texts[i]!)}${tsv}\n`);
      }
      return data.done();
    };
    if (!full && !helper) return start(() => copy(COPY_CHUNKS, lines()));
    helper ??= await pool().connect();
    // Asked at once: the helper computes while this batch waits for its turn.
    const on = helper;
    const computed = computing.then(() =>
      on.query<{ tsv: string; tokens: number }>(CHUNK_TSVECTORS, [JSON.stringify(texts)]),
    );
    computing = computed;
    computed.catch(() => {
      helperFailed = true;
    });
    track(computed);
    await start(async () => {
      const { rows: tsvs } = await computed;
      if (tsvs.length !== texts.length) throw new Error("tsvectors missing for a batch of chunks");
      await copy(COPY_CHUNKS_TSV, lines(tsvs));
    });
  };
  return {
    async addChunks(more) {
      for (const c of more) {
        chunks.push(c);
        chunkCount++;
        chunkChars += c.length;
        if (chunkChars >= COPY_BATCH_CHARS) await writeChunks(true);
      }
    },
    async addRow(row) {
      rows.add(`${prefix}${rowCount++}\t${copyJson(row)}\n`);
      if (rows.length >= COPY_BATCH_CHARS) await writeRows();
    },
    async flush() {
      await writeChunks(false);
      await writeRows();
      while (inFlight.length) await inFlight.shift();
    },
    counts: () => ({ chunks: chunkCount, rows: rowCount }),
    async settle() {
      await Promise.allSettled([...unsettled]);
    },
    close() {
      // A connection whose query failed is closed, as the writing one is (writeItemContent).
      helper?.release(helperFailed);
      helper = undefined;
    },
  };
}

/** Lines of COPY data gathered into pieces of about COPY_PIECE_CHARS. */
class Pieces {
  private readonly pieces: string[] = [];
  private piece = "";
  /** Characters added. */
  length = 0;

  add(line: string) {
    this.piece += line;
    this.length += line.length;
    if (this.piece.length >= COPY_PIECE_CHARS) {
      this.pieces.push(this.piece);
      this.piece = "";
    }
  }

  done(): string[] {
    if (this.piece) this.pieces.push(this.piece);
    this.piece = "";
    return this.pieces;
  }
}

export async function listContextRows(itemId: string, ex: Executor = db()) {
  return ex
    .select({ position: contextRows.position, data: contextRows.data })
    .from(contextRows)
    .where(eq(contextRows.itemId, itemId))
    .orderBy(asc(contextRows.position));
}

export async function listContextChunks(itemId: string, ex: Executor = db()) {
  return ex
    .select({ position: contextChunks.position, text: contextChunks.text })
    .from(contextChunks)
    .where(eq(contextChunks.itemId, itemId))
    .orderBy(asc(contextChunks.position));
}
