import { AppError } from "@/lib/errors";

/**
 * Takes the first JSON object out of model output: prose around it, ```json fences and
 * braces inside strings are all fine. Candidates are tried from left to right by where they
 * open, nested ones included, so `Use {name} here: {"a":1}` gives `{"a":1}`, and a truncated
 * outer object still yields the first complete object inside it. Only objects count: a bare
 * array or number is not an answer.
 *
 * @throws AppError BAD_REQUEST "LLM output is not a valid JSON" when no candidate parses
 */
export function extractFirstJson(text: string): unknown {
  // Where each opening brace closes (-1: never), filled by the scans as they go.
  const closeOf = new Map<number, number>();

  for (let start = text.indexOf("{"); start !== -1; start = text.indexOf("{", start + 1)) {
    if (!closeOf.has(start)) scanFrom(text, start, closeOf);
    const end = closeOf.get(start) ?? -1;
    if (end === -1) continue;
    try {
      const value: unknown = JSON.parse(text.slice(start, end + 1));
      return value;
    } catch {
      // Balanced but not JSON (a template placeholder, single quotes, a trailing comma...).
    }
  }
  throw new AppError("BAD_REQUEST", "llmOutputNotJson", "LLM_OUTPUT_NOT_JSON");
}

/**
 * Scans from the brace at `start` until it closes, recording where every brace opened
 * outside a string closes. A brace met outside a string would be scanned exactly the same way
 * from itself, so its answer is reused instead of rescanning: this keeps long, truncated or
 * brace-heavy output linear. Braces inside strings are left for their own scan, since read
 * from there the quotes pair up differently.
 */
function scanFrom(text: string, start: number, closeOf: Map<number, number>): void {
  const open: number[] = [];
  let inString = false;
  let escaped = false;

  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
    } else if (ch === "{") {
      // Already answered by an earlier scan: from here on, this scan would repeat it.
      const known = closeOf.get(i);
      if (known !== undefined && i !== start) {
        if (known === -1) break;
        i = known;
        continue;
      }
      open.push(i);
    } else if (ch === "}") {
      const opened = open.pop();
      if (opened === undefined) continue;
      closeOf.set(opened, i);
      if (open.length === 0) return;
    }
  }
  for (const opened of open) closeOf.set(opened, -1);
}
