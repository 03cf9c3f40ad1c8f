import { NextRequest } from "next/server";
import * as uploadRoute from "@/app/api/apps/[appId]/uploads/[uploadId]/route";
import * as uploadsRoute from "@/app/api/apps/[appId]/uploads/route";
import * as filesRoute from "@/app/api/files/[...key]/route";
import type { UploadAnswer } from "@/lib/uploads/schemas";
import { fromIp } from "./factories";

// The upload and file routes called in-process with raw bytes (a body of any kind, streamed),
// answers read as bytes too: an image served back is compared byte for byte. Shared by the
// disk and the S3 storage tests.

const APP_URL = process.env.APP_URL ?? "http://localhost:3000";

export type Handler = (
  req: NextRequest,
  ctx: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

/** An upload's answer, or an error's. */
type Json = UploadAnswer & { error: { code: string; message: string } };
type Sent = { status: number; headers: Headers; json: Json | null; bytes: Buffer };

export async function send(
  handler: Handler,
  o: {
    method: string;
    path: string;
    params: Record<string, string | string[]>;
    token?: string;
    body?: BodyInit | Uint8Array;
    headers?: Record<string, string>;
  },
): Promise<Sent> {
  const headers = new Headers({ ...fromIp(), ...o.headers });
  if (o.token) headers.set("authorization", `Bearer ${o.token}`);
  const req = new NextRequest(new URL(o.path, APP_URL), {
    method: o.method,
    headers,
    body: o.body as BodyInit | undefined,
    duplex: "half",
  } as ConstructorParameters<typeof NextRequest>[1]);
  const res = await handler(req, { params: Promise.resolve(o.params) });
  const bytes = Buffer.from(await res.arrayBuffer());
  const isJson = res.headers.get("content-type")?.startsWith("application/json");
  return {
    status: res.status,
    headers: res.headers,
    json: isJson ? JSON.parse(bytes.toString()) : null,
    bytes,
  };
}

/** POST /api/apps/{appId}/uploads?{query} with `body` as the image. */
export const upload = (
  appId: string,
  token: string | undefined,
  body: BodyInit | Uint8Array,
  query = "kind=logo",
  headers: Record<string, string> = {},
) =>
  send(uploadsRoute.POST as Handler, {
    method: "POST",
    path: `/api/apps/${appId}/uploads?${query}`,
    params: { appId },
    token,
    body,
    headers: { "content-type": "application/octet-stream", ...headers },
  });

export const removeUpload = (appId: string, uploadId: string, token?: string) =>
  send(uploadRoute.DELETE as Handler, {
    method: "DELETE",
    path: `/api/apps/${appId}/uploads/${uploadId}`,
    params: { appId, uploadId },
    token,
  });

/** GET a file_url (or any /api/files/... path) through the files route. */
export const fetchFile = (url: string, headers: Record<string, string> = {}) => {
  const u = new URL(url, APP_URL);
  const key = u.pathname.replace(/^\/api\/files\//, "");
  return send(filesRoute.GET as Handler, {
    method: "GET",
    path: `${u.pathname}${u.search}`,
    params: { key: key.split("/") },
    headers,
  });
};
