import { z } from "zod";
import { CONTEXT_ITEM_TYPES } from "@/db/schema";
import { storableString } from "@/lib/storable-text";

// The payloads of the connector routes: ingest/metadata and fetchCarbonTokens.

export const ConnectorProvider = z.enum(["notion", "google-drive"]);
export const ProviderParams = z.object({ provider: ConnectorProvider });

export const ConnectorAppQuery = z.object({ appId: z.uuid() });

export const ConnectorFilesQuery = z.object({
  appId: z.uuid(),
  /** Words of the file names to find; empty: the most recent files. */
  q: storableString().trim().max(200).optional().default(""),
});

export const AuthorizeQuery = z.object({ token: storableString().max(4000).optional() });

// The provider sends either a code or an error (the builder refused), always with our state.
export const CallbackQuery = z.object({
  code: storableString().max(4000).optional(),
  state: storableString().max(4000).optional(),
  error: storableString().max(200).optional(),
});

// An address the item links to: only http(s), so a link in the list can never run a script.
const HttpUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((s) => {
    try {
      return ["http:", "https:"].includes(new URL(s).protocol);
    } catch {
      return false;
    }
  });

const FileName = storableString().trim().min(1).max(200);
const FileId = storableString().trim().min(1).max(300);

export const ConnectorItem = z.discriminatedUnion("source", [
  // The address is checked by the service, to answer with the catalogue's words.
  z.object({ source: z.literal("web scraper"), url: storableString().max(2000) }),
  z.object({
    source: z.literal("notion"),
    externalFileId: FileId,
    name: FileName,
    type: z.enum(["notion page", "notion database"]),
    externalFileUrl: HttpUrl.nullish(),
  }),
  z.object({
    source: z.literal("google drive"),
    externalFileId: FileId,
    name: FileName,
    type: z.enum(["google doc", "google sheet", "google slide", "pdf", "doc", "csv", "txt"]),
    externalFileUrl: HttpUrl.nullish(),
  }),
]);
export type ConnectorItem = z.infer<typeof ConnectorItem>;

export const IngestMetadataBody = z
  .object({ contextItems: z.array(ConnectorItem).min(1).max(50) })
  .meta({ examples: [{ contextItems: [{ source: "web scraper", url: "https://example.com/docs" }] }] });

export const IngestMetadataQuery = z.object({
  appId: z.uuid(),
  /** An item of the app this request replaces: the data-item limit does not count it. */
  replacing: z.uuid().optional(),
});

// Answers of the connector routes, as the client receives them.

/** A file of a provider, as the picker lists it and the metadata ingest takes it back. */
export const ConnectorFileAnswer = z.object({
  externalFileId: z.string(),
  name: z.string(),
  type: z.enum(CONTEXT_ITEM_TYPES),
  externalFileUrl: z.string().nullable(),
});

/** GET /api/integrations/{provider}/files */
export const ConnectorFilesAnswer = z.object({ files: z.array(ConnectorFileAnswer) });
export type ConnectorFilesAnswer = z.infer<typeof ConnectorFilesAnswer>;

/** A connector in the dialog: set up on this server (else the variables to set), and connected by the app's owner. */
const ConnectorState = z.object({
  configured: z.boolean(),
  missingEnv: z.array(z.string()),
  connected: z.boolean(),
  /** The workspace or account connected, when the provider names it. */
  accountName: z.string().nullable(),
});

/** GET /api/integrations/fetchCarbonTokens: the connect token (OAuth state), the plan's limits, each connector. */
export const ConnectorTokensAnswer = z.object({
  accessToken: z.string(),
  expiresAt: z.iso.datetime(),
  /** Connector files one request may add. */
  maxFiles: z.number().int().nonnegative(),
  webScraper: z.object({
    maxDepth: z.number().int().nonnegative(),
    maxPages: z.number().int().nonnegative(),
  }),
  connectors: z.record(ConnectorProvider, ConnectorState),
});
export type ConnectorTokensAnswer = z.infer<typeof ConnectorTokensAnswer>;
