import { RunStreamPart } from "@/lib/runs/schemas";

// Reads the answer of POST /api/apps/{appId}/run: Server-Sent Events in the AI SDK's UI message
// stream protocol, one JSON part per `data:` line, then `data: [DONE]`. Client-safe
// and framework-free, so the page and the unit tests share it. Parts of types this page does not
// know (the protocol has more than a tool run sends) are skipped, not treated as a failure.

/** How a stream ended: `done` when `data: [DONE]` arrived, `eof` when the body just stopped. */
export type StreamEnd = "done" | "eof";

/** The `data:` payloads of one SSE event block, joined as the SSE spec says (by newlines). */
function eventData(block: string): string | null {
  const lines: string[] = [];
  for (const line of block.split(/\r\n|\r|\n/)) {
    if (!line.startsWith("data:")) continue; // comments (":...") and other fields
    lines.push(line.slice(line.startsWith("data: ") ? 6 : 5));
  }
  return lines.length ? lines.join("\n") : null;
}

/**
 * Splits SSE text as it arrives: feed chunks with `push`, get back the complete events' data;
 * what is left over waits for the next chunk. `flush` returns the last event of a body that
 * ended without a blank line.
 */
export function createSseSplitter() {
  let buffer = "";
  return {
    push(chunk: string): string[] {
      buffer += chunk;
      const blocks = buffer.split(/\r\n\r\n|\n\n|\r\r/);
      buffer = blocks.pop() ?? "";
      return blocks.map(eventData).filter((d): d is string => d !== null);
    },
    flush(): string[] {
      const rest = buffer;
      buffer = "";
      const data = rest.trim() ? eventData(rest) : null;
      return data === null ? [] : [data];
    },
  };
}

/** One event's data as a known part, or null (unknown type, not JSON). */
export function parsePart(data: string): RunStreamPart | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = RunStreamPart.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/**
 * Reads a run's answer body to its end, calling `onPart` for each part in order. Resolves with
 * how it ended; rejects when reading fails (the connection dropped, or the fetch was aborted).
 */
export async function readRunStream(
  body: ReadableStream<Uint8Array>,
  onPart: (part: RunStreamPart) => void,
): Promise<StreamEnd> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const splitter = createSseSplitter();
  const handle = (events: string[]): boolean => {
    for (const data of events) {
      if (data.trim() === "[DONE]") return true;
      const part = parsePart(data);
      if (part) onPart(part);
    }
    return false;
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (handle(splitter.push(decoder.decode(value, { stream: true })))) return "done";
    }
    return handle([...splitter.push(decoder.decode()), ...splitter.flush()]) ? "done" : "eof";
  } finally {
    // Stops the download when [DONE] came first; a no-op once the body has ended.
    reader.cancel().catch(() => {});
  }
}
