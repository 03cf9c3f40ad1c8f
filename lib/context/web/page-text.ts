import "server-only";
import type { PageContent } from "@/lib/context/parse/page-text.mjs";
import { parsePage } from "@/lib/context/parse/run";

export type { PageContent };

/**
 * What a page says and where it links (lib/context/parse/page-text.mjs), read by the parsing
 * worker: a page whose HTML needs more memory or time than the worker has throws
 * UnreadableFileError('contextFileTooComplex').
 */
export function readPage(body: string, mediaType: string, url: string): Promise<PageContent> {
  return parsePage(body, mediaType, url);
}
