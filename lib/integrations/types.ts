import type { z } from "zod";
import type { ConnectorFileAnswer } from "./schemas";

/** A file of a provider, as the picker lists it and the metadata ingest takes it back. */
export type ConnectorFile = z.infer<typeof ConnectorFileAnswer>;

/** What a provider's token endpoint grants. */
export type OAuthTokens = {
  accessToken: string;
  refreshToken: string | null;
  /** null: the token does not expire (Notion's so far) */
  expiresAt: Date | null;
  /** The workspace or account connected, to show which one it is. */
  accountName: string | null;
};
