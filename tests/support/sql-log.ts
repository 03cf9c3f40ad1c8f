import pg from "pg";

/**
 * The statements this process sends to PostgreSQL while `fn` runs, as their SQL text: every query
 * of pg's clients (the pool's, a transaction's, a prepared statement's) passes Client.query.
 * Other work of the process at the same time would be counted too: run nothing beside it.
 */
export async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const original = pg.Client.prototype.query;
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has many overloads; the text is read, the call passed on.
  pg.Client.prototype.query = function (this: pg.Client, ...args: any[]) {
    const first = args[0];
    const text = typeof first === "string" ? first : (first?.text ?? first?.name ?? "");
    seen.push(String(text));
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = original;
  }
  return seen;
}
