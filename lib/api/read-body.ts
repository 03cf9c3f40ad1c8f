import { AppError, type FilledMessage } from "@/lib/errors";
import type { MessageKey } from "@/lib/messages";

const tooLarge = (message: MessageKey | FilledMessage) => new AppError("PAYLOAD_TOO_LARGE", message);

/** Refuses a request whose declared length is over the cap, before a byte of it is read. */
export function assertDeclaredLength(
  req: Request,
  cap: number,
  message: MessageKey | FilledMessage = "payloadTooLarge",
): void {
  const declared = req.headers.get("content-length");
  if (declared !== null && (!/^\d+$/.test(declared) || Number(declared) > cap)) throw tooLarge(message);
}

/**
 * The body's bytes, read chunk by chunk and refused (413) as soon as they pass the cap: a
 * chunked body that declares no length is never read to its end.
 */
export async function readBodyCapped(
  req: Request,
  cap: number,
  message: MessageKey | FilledMessage = "payloadTooLarge",
): Promise<Uint8Array<ArrayBuffer>> {
  assertDeclaredLength(req, cap, message);
  if (!req.body) return new Uint8Array(new ArrayBuffer(0));
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => {});
      throw tooLarge(message);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    body.set(c, offset);
    offset += c.byteLength;
  }
  return body;
}
