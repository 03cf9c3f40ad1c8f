import "server-only";
import type { IntegrationProvider } from "./config";
import { PROVIDER_TIMEOUT_MS } from "./config";

/**
 * A provider answered with an error status. `code` is the provider's own word for it (Notion's
 * `code`, Google's `reason` or OAuth `error`), for the callers to tell a revoked grant (no retry
 * cures it) from a passing failure (a retry may).
 */
export class ProviderHttpError extends Error {
  constructor(
    readonly provider: IntegrationProvider,
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(`${provider} answered ${status} ${code}: ${detail}`);
    this.name = "ProviderHttpError";
  }
}

/** A file larger than the plan's size cap: it is not read past the cap. */
export class ProviderFileTooLargeError extends Error {
  constructor() {
    super("file too large");
    this.name = "ProviderFileTooLargeError";
  }
}

/** A call to a provider with a time limit; an error status is thrown as a ProviderHttpError. */
export async function providerFetch(
  provider: IntegrationProvider,
  url: string | URL,
  init: RequestInit = {},
): Promise<Response> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  if (res.ok) return res;
  const text = await res.text().catch(() => "");
  let code = `http_${res.status}`;
  let detail = text.slice(0, 300);
  try {
    const body = JSON.parse(text) as {
      code?: string;
      message?: string;
      error?: string | { status?: string; message?: string; errors?: { reason?: string }[] };
      error_description?: string;
    };
    if (typeof body.code === "string") code = body.code; // Notion
    if (typeof body.error === "string")
      code = body.error; // OAuth token endpoints
    else if (body.error) code = body.error.errors?.[0]?.reason ?? body.error.status ?? code; // Google APIs
    detail =
      body.message ??
      body.error_description ??
      (typeof body.error === "object" ? body.error.message : "") ??
      "";
  } catch {
    // not JSON: the status says enough
  }
  throw new ProviderHttpError(provider, res.status, code, detail ?? "");
}

export async function providerJson<T>(
  provider: IntegrationProvider,
  url: string | URL,
  init: RequestInit = {},
): Promise<T> {
  return (await providerFetch(provider, url, init)).json() as Promise<T>;
}

/** The answer's bytes, refusing (without reading further) past `max` bytes. */
export async function readCapped(res: Response, max: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get("content-length") ?? "NaN");
  if (declared > max) {
    await res.body?.cancel();
    throw new ProviderFileTooLargeError();
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  if (res.body) {
    for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) {
      total += part.byteLength;
      if (total > max) throw new ProviderFileTooLargeError();
      parts.push(part);
    }
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** A stream of the answer's bytes that errors (ProviderFileTooLargeError) past `max` bytes. */
export function cappedStream(res: Response, max: number): ReadableStream<Uint8Array> {
  const declared = Number(res.headers.get("content-length") ?? "NaN");
  if (declared > max) {
    void res.body?.cancel();
    throw new ProviderFileTooLargeError();
  }
  let total = 0;
  return (res.body ?? new Response("").body!).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > max) controller.error(new ProviderFileTooLargeError());
        else controller.enqueue(chunk);
      },
    }),
  );
}
