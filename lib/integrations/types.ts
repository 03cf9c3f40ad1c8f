import type { ContextItem } from "@/db/schema";

/** A file of a provider, as the picker lists it and the metadata ingest takes it back. */
export type ConnectorFile = {
  externalFileId: string;
  name: string;
  type: ContextItem["type"];
  externalFileUrl: string | null;
};

/** What a provider's token endpoint grants. */
export type OAuthTokens = {
  accessToken: string;
  refreshToken: string | null;
  /** null: the token does not expire (Notion's so far) */
  expiresAt: Date | null;
  /** The workspace or account connected, to show which one it is. */
  accountName: string | null;
};
