import "server-only";
import { env } from "@/lib/env";
import { callbackUrl, connectorConfig } from "./config";
import { providerFetch, providerJson } from "./http";
import { pkceChallenge, pkceVerifier } from "./state";
import type { ConnectorFile, OAuthTokens } from "./types";

// Google Drive through Google's OAuth 2.0 for web server apps (offline access: a refresh token)
// and the Drive API v3. GOOGLE_OAUTH_URL, GOOGLE_TOKEN_URL and GOOGLE_DRIVE_API_URL point it at
// a local server in tests.

const SCOPE = "https://www.googleapis.com/auth/drive.readonly";
const LIST_LIMIT = 100;

/** How each readable kind of Drive file is read, by its MIME type. */
export const DRIVE_FILE_KINDS = {
  "application/vnd.google-apps.document": { type: "google doc", read: { export: "text/plain" } },
  "application/vnd.google-apps.spreadsheet": { type: "google sheet", read: { export: "text/csv" } },
  "application/vnd.google-apps.presentation": { type: "google slide", read: { export: "text/plain" } },
  "application/pdf": { type: "pdf", read: { download: "pdf" } },
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": {
    type: "doc",
    read: { download: "docx" },
  },
  "text/csv": { type: "csv", read: { download: "csv" } },
  "text/plain": { type: "txt", read: { download: "txt" } },
} as const satisfies Record<
  string,
  {
    type: ConnectorFile["type"];
    read: { export: "text/plain" | "text/csv" } | { download: "pdf" | "docx" | "csv" | "txt" };
  }
>;
export type DriveMimeType = keyof typeof DRIVE_FILE_KINDS;

export const isReadableDriveType = (mime: string): mime is DriveMimeType =>
  Object.hasOwn(DRIVE_FILE_KINDS, mime);

const driveApi = (path: string) => new URL(path, env().GOOGLE_DRIVE_API_URL);

export function driveAuthorizeUrl(state: string): string {
  const url = new URL(env().GOOGLE_OAUTH_URL);
  const p = url.searchParams;
  p.set("client_id", connectorConfig("google-drive").clientId);
  p.set("redirect_uri", callbackUrl("google-drive"));
  p.set("response_type", "code");
  p.set("scope", SCOPE);
  // Offline access with consent asked each time: Google sends a refresh token only then.
  p.set("access_type", "offline");
  p.set("prompt", "consent");
  p.set("include_granted_scopes", "true");
  p.set("state", state);
  p.set("code_challenge", pkceChallenge(pkceVerifier(state)));
  p.set("code_challenge_method", "S256");
  return url.toString();
}

type GoogleTokenAnswer = { access_token: string; refresh_token?: string; expires_in?: number };

function tokenRequest(fields: Record<string, string>) {
  const { clientId, clientSecret } = connectorConfig("google-drive");
  return providerJson<GoogleTokenAnswer>("google-drive", env().GOOGLE_TOKEN_URL, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...fields, client_id: clientId, client_secret: clientSecret }),
  });
}

const expiry = (answer: GoogleTokenAnswer) => new Date(Date.now() + (answer.expires_in ?? 3600) * 1000);

/** The code of the consent screen for tokens (and the Google account's address, to show). */
export async function driveExchangeCode(code: string, state: string): Promise<OAuthTokens> {
  const answer = await tokenRequest({
    grant_type: "authorization_code",
    code,
    redirect_uri: callbackUrl("google-drive"),
    code_verifier: pkceVerifier(state),
  });
  return {
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token ?? null,
    expiresAt: expiry(answer),
    accountName: await driveAccountName(answer.access_token),
  };
}

export async function driveRefresh(refreshToken: string): Promise<OAuthTokens> {
  const answer = await tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken });
  return {
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token ?? null,
    expiresAt: expiry(answer),
    accountName: null,
  };
}

// Only to show which Google account is connected: connecting does not fail for want of it.
async function driveAccountName(token: string): Promise<string | null> {
  try {
    const url = driveApi("/drive/v3/about");
    url.searchParams.set("fields", "user(displayName,emailAddress)");
    const about = await providerJson<{ user?: { emailAddress?: string; displayName?: string } }>(
      "google-drive",
      url,
      { headers: { authorization: `Bearer ${token}` } },
    );
    return about.user?.emailAddress ?? about.user?.displayName ?? null;
  } catch {
    return null;
  }
}

/** Drive's query language quotes with ' and escapes with \. */
const quote = (s: string) => `'${s.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;

type DriveFile = { id: string; name: string; mimeType: string; webViewLink?: string; trashed?: boolean };

/** GET /drive/v3/files: the readable files the account can see, newest first, matching `query`. */
export async function driveListFiles(token: string, query: string): Promise<ConnectorFile[]> {
  const types = Object.keys(DRIVE_FILE_KINDS).map((m) => `mimeType = ${quote(m)}`);
  const q = [
    `trashed = false`,
    `(${types.join(" or ")})`,
    ...(query ? [`name contains ${quote(query)}`] : []),
  ];
  const files: ConnectorFile[] = [];
  let pageToken: string | undefined;
  do {
    const url = driveApi("/drive/v3/files");
    const p = url.searchParams;
    p.set("q", q.join(" and "));
    p.set("fields", "nextPageToken, files(id, name, mimeType, webViewLink)");
    p.set("pageSize", "100");
    p.set("orderBy", "modifiedTime desc");
    p.set("supportsAllDrives", "true");
    p.set("includeItemsFromAllDrives", "true");
    if (pageToken) p.set("pageToken", pageToken);
    const page = await providerJson<{ files?: DriveFile[]; nextPageToken?: string }>("google-drive", url, {
      headers: { authorization: `Bearer ${token}` },
    });
    for (const f of page.files ?? []) {
      if (!isReadableDriveType(f.mimeType)) continue;
      files.push({
        externalFileId: f.id,
        name: f.name,
        type: DRIVE_FILE_KINDS[f.mimeType].type,
        externalFileUrl: f.webViewLink ?? null,
      });
    }
    pageToken = page.nextPageToken;
  } while (pageToken && files.length < LIST_LIMIT);
  return files.slice(0, LIST_LIMIT);
}

/** GET /drive/v3/files/{id}: what the file is now (its type decides how it is read). */
export async function driveFileMeta(token: string, fileId: string): Promise<DriveFile> {
  const url = driveApi(`/drive/v3/files/${encodeURIComponent(fileId)}`);
  url.searchParams.set("fields", "id, name, mimeType, trashed");
  url.searchParams.set("supportsAllDrives", "true");
  return providerJson<DriveFile>("google-drive", url, { headers: { authorization: `Bearer ${token}` } });
}

/** A Google Docs, Sheets or Slides file exported to a plain format (GET .../export). */
export function driveExport(token: string, fileId: string, mimeType: string): Promise<Response> {
  const url = driveApi(`/drive/v3/files/${encodeURIComponent(fileId)}/export`);
  url.searchParams.set("mimeType", mimeType);
  return providerFetch("google-drive", url, { headers: { authorization: `Bearer ${token}` } });
}

/** A stored file's bytes (GET /drive/v3/files/{id}?alt=media). */
export function driveDownload(token: string, fileId: string): Promise<Response> {
  const url = driveApi(`/drive/v3/files/${encodeURIComponent(fileId)}`);
  url.searchParams.set("alt", "media");
  url.searchParams.set("supportsAllDrives", "true");
  return providerFetch("google-drive", url, { headers: { authorization: `Bearer ${token}` } });
}
