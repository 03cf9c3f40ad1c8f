import { AppError, type FilledMessage } from "@/lib/errors";
import type { MessageKey } from "@/lib/messages";
import { readBodyCapped } from "./read-body";

/**
 * A multipart/form-data body, read under the cap (413 past it, as readBodyCapped) and then parsed;
 * a body of another type, or one that is not well-formed multipart, is refused with 400.
 */
export async function readFormCapped(
  req: Request,
  cap: number,
  message: MessageKey | FilledMessage = "payloadTooLarge",
): Promise<FormData> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    throw new AppError("BAD_REQUEST", "invalidInput", "MULTIPART_EXPECTED");
  }
  const bytes = await readBodyCapped(req, cap, message);
  try {
    return await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch {
    throw new AppError("BAD_REQUEST", "invalidInput", "MULTIPART_UNREADABLE");
  }
}
