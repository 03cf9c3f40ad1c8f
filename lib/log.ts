// Structured one-line logs; errors carry the request id that the client received.
type Fields = Record<string, unknown>;

function line(level: string, msg: string, fields: Fields): string {
  const out: Fields = { level, time: new Date().toISOString(), msg };
  for (const [k, v] of Object.entries(fields)) {
    out[k] = v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v;
  }
  return JSON.stringify(out);
}

export function logError(msg: string, fields: Fields = {}): void {
  if (process.env.LOG_LEVEL === "silent") return;
  console.error(line("error", msg, fields));
}

export function logInfo(msg: string, fields: Fields = {}): void {
  if (
    process.env.LOG_LEVEL === "silent" ||
    process.env.LOG_LEVEL === "error" ||
    process.env.LOG_LEVEL === "warn"
  )
    return;
  console.log(line("info", msg, fields));
}
