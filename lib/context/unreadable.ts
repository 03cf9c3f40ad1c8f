import type { MessageKey } from "@/lib/messages";

/** A file that will never be read, however often it is tried: the job ends in Error at once. */
export class UnreadableFileError extends Error {
  constructor(
    readonly reason: MessageKey,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
    this.name = "UnreadableFileError";
  }
}
