import "server-only";
import type { ContextItem } from "@/db/schema";
import { type ExtractedFile, parseCsv, UnreadableFileError } from "@/lib/context/extract-file";
import { parseDocx, parsePdf } from "@/lib/context/parse/run";
import type { MessageKey } from "@/lib/messages";
import type { AppWithOwner } from "@/lib/plans/owner-plan";
import { type IntegrationProvider, providerOfSource } from "./config";
import { ConnectionLostError, withAccessToken } from "./connections";
import {
  DRIVE_FILE_KINDS,
  driveDownload,
  driveExport,
  driveFileMeta,
  isReadableDriveType,
} from "./google-drive";
import { cappedStream, ProviderFileTooLargeError, ProviderHttpError, readCapped } from "./http";
import { NotionGoneError, notionReadDatabase, notionReadPage } from "./notion";

/** Why a connection cannot be used, as the item's error says it: status Error, with a reason. */
const LOST_MESSAGES: Record<IntegrationProvider, Record<ConnectionLostError["reason"], MessageKey>> = {
  notion: {
    missing: "notionNotConnectedItem",
    revoked: "notionAccessRevoked",
    "refresh-failed": "notionAccessRevoked",
  },
  "google-drive": {
    missing: "googleDriveNotConnectedItem",
    revoked: "googleDriveAccessRevoked",
    "refresh-failed": "googleDriveRefreshFailed",
  },
};

/**
 * The text of a Notion or Google Drive item (and a sheet's or database's rows), read through the
 * connection of the account that owns the item's app: the data belongs to the app, whoever
 * (owner or admin) added it. Failures no retry can cure (access revoked or disconnected, the file
 * deleted or unshared, a type that cannot be read, larger than the plan allows) throw
 * UnreadableFileError with the reason; anything else (the provider down, rate limits) is thrown
 * as it is, for the job to retry.
 */
export async function fetchConnectorSource(
  item: ContextItem,
  { app, owner }: AppWithOwner,
): Promise<ExtractedFile> {
  const provider = providerOfSource(item.source);
  if (!provider) throw new Error(`not a connector source: ${item.source}`);
  if (!item.externalFileId) throw new UnreadableFileError("connectorFileGone");
  // Text is counted in characters, a file in bytes: either way the plan's upload size caps it.
  const maxBytes = owner.caps.maxUploadBytes;
  const fileId = item.externalFileId;
  try {
    return await withAccessToken(app.ownerAccountId, provider, (token) =>
      provider === "notion"
        ? readNotion(token, fileId, item.type === "notion database", maxBytes)
        : readDrive(token, fileId, maxBytes),
    );
  } catch (err) {
    if (err instanceof ConnectionLostError)
      throw new UnreadableFileError(LOST_MESSAGES[provider][err.reason]);
    if (err instanceof ProviderFileTooLargeError) throw new UnreadableFileError("connectorFileTooLarge");
    if (err instanceof NotionGoneError) throw new UnreadableFileError("connectorFileGone", { cause: err });
    if (err instanceof ProviderHttpError) {
      const reason = unreadableReason(err);
      if (reason) throw new UnreadableFileError(reason, { cause: err });
    }
    throw err;
  }
}

/** The provider's refusals that say the file is gone for good, or too large to export. */
function unreadableReason(err: ProviderHttpError): MessageKey | null {
  if (err.status === 404) return "connectorFileGone";
  if (err.provider === "notion") {
    // restricted_resource: the page is no longer shared with the integration.
    return err.status === 403 ? "connectorFileGone" : null;
  }
  if (err.status === 403) {
    if (err.code === "exportSizeLimitExceeded") return "connectorFileTooLarge";
    if (/rateLimitExceeded|userRateLimitExceeded|backendError/.test(err.code)) return null;
    return "connectorFileGone";
  }
  return null;
}

async function readNotion(token: string, id: string, isDatabase: boolean, maxChars: number) {
  if (isDatabase) return notionReadDatabase(token, id, maxChars);
  return { text: await notionReadPage(token, id, maxChars) };
}

/**
 * A Drive file, read by what it is now (not by the type the picker showed): Docs and Slides
 * exported as text, Sheets as CSV (only the first sheet, as Drive exports it) read like an
 * uploaded CSV, PDF and Word files downloaded and read like uploads.
 */
async function readDrive(token: string, fileId: string, maxBytes: number): Promise<ExtractedFile> {
  const meta = await driveFileMeta(token, fileId);
  if (meta.trashed) throw new UnreadableFileError("connectorFileGone");
  if (!isReadableDriveType(meta.mimeType)) throw new UnreadableFileError("connectorFileType");
  const read = DRIVE_FILE_KINDS[meta.mimeType].read;
  if ("export" in read) {
    const res = await driveExport(token, fileId, read.export);
    if (read.export === "text/csv") return parseCsv(cappedStream(res, maxBytes));
    return { text: new TextDecoder().decode(await readCapped(res, maxBytes)) };
  }
  const res = await driveDownload(token, fileId);
  switch (read.download) {
    case "csv":
      return parseCsv(cappedStream(res, maxBytes));
    case "pdf":
      return { text: await parsePdf(await readCapped(res, maxBytes)) };
    case "docx":
      return { text: await parseDocx(await readCapped(res, maxBytes)) };
    case "txt":
      return { text: new TextDecoder().decode(await readCapped(res, maxBytes)) };
  }
}
