import type { FilledMessage } from "@/lib/errors";
import type { MessageKey } from "@/lib/messages";

/** An object read back from storage. */
export type StoredObject = {
  body: ReadableStream<Uint8Array>;
  /** Bytes, when the storage says. */
  size?: number;
  /** The type it was stored with, when the storage keeps one. */
  contentType?: string;
};

/**
 * Where uploaded files live: the local disk by default, S3-compatible storage in production
 * (one interface, a local default and a production driver).
 */
export interface StorageDriver {
  readonly kind: "disk" | "s3";
  /** Stores (or replaces) the object at `key`; readers never see half of it. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The object, or null when there is none at `key`. */
  get(key: string): Promise<StoredObject | null>;
  /** Deletes the object; a key with no object is not an error. */
  delete(key: string): Promise<void>;
}

/**
 * A storage failure, with the sentence the user sees ("storage errors shown as-is"):
 * the storage service's own message, or one of ours for a disk failure. Never a path or a host.
 */
export class StorageError extends Error {
  constructor(
    readonly userMessage: MessageKey | FilledMessage,
    options?: { cause?: unknown },
  ) {
    super(typeof userMessage === "string" ? userMessage : JSON.stringify(userMessage), options);
    this.name = "StorageError";
  }
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;
export const KEY_MAX = 1024;

/**
 * Keys are relative paths of plain segments: no empty, "." or ".." segment, no leading dot, no
 * backslash or other separator, so a key can never name anything outside the storage root.
 */
export function isValidKey(key: string): boolean {
  if (key.length === 0 || key.length > KEY_MAX) return false;
  return key.split("/").every((segment) => SEGMENT.test(segment) && !segment.includes(".."));
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
}
