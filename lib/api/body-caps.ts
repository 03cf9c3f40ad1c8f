import {
  CSV_IMPORT_BYTES_MAX,
  FUNCTION_REQUEST_BODY_MAX,
  IMAGE_MAX_BYTES,
  SPACE_FILE_MAX_BYTES,
} from "@/lib/constants";
import type { FilledMessage } from "@/lib/errors";
import type { MessageKey } from "@/lib/messages";
import { BASE_UPLOAD_BYTES } from "@/lib/plans/capabilities";
import { formatMegabytes } from "@/lib/plans/features";

/** The largest context file any plan may upload: paid plans' twice the base size. */
const CONTEXT_FILE_MAX_BYTES = 2 * BASE_UPLOAD_BYTES;

/**
 * The largest request body each kind of route reads, in bytes: every cap in one place. A body
 * over its cap is refused with 413 before it is parsed (lib/api/read-body.ts).
 */
export const BODY_CAPS = {
  /** JSON routes: every field has a length limit far below this. */
  json: 16 * 1024,
  /** A save of a space app's secrets: several values of up to SECRET_VALUE_MAX characters each. */
  secrets: 128 * 1024,
  /** Auth.js's form posts (sign-in, sign-out, CSRF): a few short fields. */
  authForm: 8 * 1024,
  /** Stripe's signed events are a few KiB; Stripe documents no event near this. */
  stripeWebhook: 512 * 1024,
  /** A model call with an app's instructions as context (up to INSTRUCTIONS_MAX characters, escaped). */
  aiPrompt: 128 * 1024,
  /** An app's or a tool's content: instructions, texts, up to FIELDS_HARD_MAX fields with their options. */
  appContent: 512 * 1024,
  /** An uploaded image: "rejects files of 10,000,000 bytes or more", so one byte less. */
  image: IMAGE_MAX_BYTES - 1,
  /**
   * A context file, up to the largest plan's size; the service reads the body itself with the
   * app owner's plan's own cap (lib/context/files.ts), so a lite upload stops at its 10 MB.
   */
  contextFile: CONTEXT_FILE_MAX_BYTES,
  /**
   * A CSV import's form: the file (up to CSV_IMPORT_BYTES_MAX, checked again on the file part)
   * and its column mapping (up to a thousand columns of JSON), with the form's own framing.
   */
  csvImport: CSV_IMPORT_BYTES_MAX + 1024 * 1024,
  /**
   * A save of the code editor: one file of up to SPACE_FILE_MAX_BYTES, with room for JSON's
   * escapes (code is mostly plain text; a control character takes 6 bytes).
   */
  codeFile: 4 * SPACE_FILE_MAX_BYTES,
  /** A delete of the code editor: the files that imported the deleted one, updated with it. */
  codeDelete: 16 * SPACE_FILE_MAX_BYTES,
  /** A merge of chosen files of a space app: a few files of up to SPACE_FILE_MAX_BYTES each. */
  spaceMerge: 16 * SPACE_FILE_MAX_BYTES,
  /** A call of a space app's function by its public URL: the runtime's request cap. */
  functionCall: FUNCTION_REQUEST_BODY_MAX,
} as const;

export type BodyCap = keyof typeof BODY_CAPS;

/** The 413's message where the spec words it for a kind of body; the others say payloadTooLarge. */
/** An import's file over its cap. */
export const CSV_TOO_LARGE: FilledMessage = {
  key: "csvImportTooLarge",
  vars: { size: formatMegabytes(CSV_IMPORT_BYTES_MAX) },
};

export const BODY_CAP_MESSAGES: Partial<Record<BodyCap, MessageKey | FilledMessage>> = {
  image: "fileTooLarge",
  contextFile: { key: "contextFileTooLarge", vars: { size: formatMegabytes(CONTEXT_FILE_MAX_BYTES) } },
  csvImport: CSV_TOO_LARGE,
  functionCall: { key: "functionRequestTooLarge", vars: { max: formatMegabytes(FUNCTION_REQUEST_BODY_MAX) } },
};
