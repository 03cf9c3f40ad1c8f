import { type MessageKey, messages } from "@/lib/messages";
import { formatMegabytes } from "@/lib/plans/features";
import { fillTemplate } from "@/lib/text";

// How a data source reads in the panel, free of React so the rules can be tested.

export type StatusTone = "pending" | "syncing" | "synced" | "error" | "limit" | "unknown";

/**
 * "Displayed as: Pending (unsynced or pending), Syncing... (running), Synced, Error, Usage limit
 * reached, otherwise Unknown".
 */
export function statusDisplay(status: string): { label: string; tone: StatusTone } {
  switch (status) {
    case "unsynced":
    case "pending":
      return { label: messages.contextStatusPending, tone: "pending" };
    case "running":
      return { label: messages.contextStatusSyncing, tone: "syncing" };
    case "synced":
      return { label: messages.contextStatusSynced, tone: "synced" };
    case "error":
      return { label: messages.contextStatusError, tone: "error" };
    case "usage_limit_reached":
      return { label: messages.contextStatusUsageLimit, tone: "limit" };
    default:
      return { label: messages.contextStatusUnknown, tone: "unknown" };
  }
}

/** Statuses that carry a reason the builder should read (the item's `error`). */
export const showsReason = (status: string) => status === "error" || status === "usage_limit_reached";

const typeKeys: Record<string, MessageKey> = {
  csv: "contextTypeCsv",
  doc: "contextTypeDoc",
  txt: "contextTypeTxt",
  pdf: "contextTypePdf",
  "google doc": "contextTypeGoogleDoc",
  "google sheet": "contextTypeGoogleSheet",
  "google slide": "contextTypeGoogleSlide",
  "notion database": "contextTypeNotionDatabase",
  "notion page": "contextTypeNotionPage",
  "web page": "contextTypeWebPage",
};

export const typeLabel = (type: string) => messages[typeKeys[type] ?? "contextTypeUnrecognized"];

/**
 * Where an item comes from, when its type does not say it already: a PDF, Word, CSV or text file
 * of Google Drive. Notion's and Google's own types, web pages and local files need no more.
 */
export const sourceNote = (item: { source: string; type: string }) =>
  item.source === "google drive" && !item.type.startsWith("google")
    ? messages.contextSourceGoogleDrive
    : null;

/** Connector items (web scraper, Notion, Google Drive) can be read again on demand. */
export const canSyncAgain = (source: string) => ["web scraper", "notion", "google drive"].includes(source);

/** What replaces a local item: a text for a text, a file of the same kind for a file. */
export function replaceKind(item: { source: string; type: string }): "text" | "csv" | "doc" | null {
  if (item.source !== "local files") return null;
  if (item.type === "txt") return "text";
  if (item.type === "csv") return "csv";
  return "doc";
}

const KB = 1024;
const MB = KB * 1024;

/** Bytes as people read them: "812 B", "12.4 KB", "3.1 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < KB) return `${bytes} B`;
  if (bytes < MB) return `${(bytes / KB).toFixed(1).replace(/\.0$/, "")} KB`;
  return `${(bytes / MB).toFixed(1).replace(/\.0$/, "")} MB`;
}

/**
 * An item's size, shown without a unit: characters of a text, bytes of an uploaded
 * file; a connector's item counts the characters it read. Nothing before there is anything.
 */
export function sizeLabel(item: { source: string; type: string; size: number }): string | null {
  if (!item.size) return null;
  if (item.source === "local files" && item.type !== "txt") return formatBytes(item.size);
  return fillTemplate(messages.dataSourceCharacters, { n: item.size.toLocaleString("en-US") });
}

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });

export function formatDate(iso: string | null): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : dateFormat.format(date);
}

/** The file types the dialog's pickers accept: CSV for lists; PDF and Word (doc, docx) for docs. */
export const FILE_ACCEPT = { csv: ".csv,text/csv", doc: ".pdf,.doc,.docx" } as const;

const EXTENSIONS = { csv: [".csv"], doc: [".pdf", ".doc", ".docx"] } as const;

/**
 * Why a chosen file cannot be sent, or null: not one of the kind's types, or over the plan's
 * size (the server checks both again, and the content too).
 */
export function checkContextFile(
  file: { name: string; size: number },
  kind: "csv" | "doc",
  maxBytes: number,
) {
  const name = file.name.toLowerCase();
  if (!EXTENSIONS[kind].some((ext) => name.endsWith(ext))) return messages.contextFileType;
  if (file.size > maxBytes)
    return fillTemplate(messages.contextFileTooLarge, { size: formatMegabytes(maxBytes) });
  return null;
}
