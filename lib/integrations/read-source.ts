import "server-only";
import type { ContextItem } from "@/db/schema";
import {
  type ExtractedFile,
  extractFileText,
  readStoredFile,
  storedFileKind,
} from "@/lib/context/extract-file";
import { crawlWebSource } from "@/lib/context/web/crawl";
import { webScraperLimits } from "@/lib/context/web/plan-limits";
import { fetchConnectorSource } from "@/lib/integrations/fetch-source";
import type { AppWithOwner } from "@/lib/plans/owner-plan";

/**
 * The text of a data source, read the way its source needs: pasted text is on the item, an
 * uploaded file is in storage, a web site or a connector's file is fetched. Throws
 * UnreadableFileError (lib/context/extract-file.ts) for a source that no retry can read.
 * `of`: the item's app and its owner's plan (a site's crawl limits, a file's size cap, the
 * connection it is read through). `stored`: the uploaded file's bytes when the caller read them
 * already (they are handed over to the parsing worker).
 */
export async function readSource(
  item: ContextItem,
  of: AppWithOwner,
  stored?: Uint8Array,
): Promise<ExtractedFile> {
  switch (item.source) {
    case "local files":
      if (!item.fileKey) return { text: item.content ?? "" };
      return extractFileText(storedFileKind(item), stored ?? (await readStoredFile(item)));
    case "web scraper":
      return crawlWebSource(item, webScraperLimits(of.owner));
    case "notion":
    case "google drive":
      return fetchConnectorSource(item, of);
    default:
      throw new Error(`no reader for the source "${item.source}"`);
  }
}
