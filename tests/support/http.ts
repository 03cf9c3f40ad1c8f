import { NextRequest } from "next/server";

type Handler = (
  req: NextRequest,
  ctx: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

export type CallOptions = {
  method?: string;
  path: string;
  body?: unknown;
  rawBody?: string;
  token?: string;
  cookie?: string;
  headers?: Record<string, string>;
  params?: Record<string, string | string[]>;
};

/** Calls a route handler in-process, exactly as Next would: a real Request, real headers. */
/** Answers of our routes: fields, or `error` on failure. */
export type Answer = { error?: { code: string; message: string }; [key: string]: unknown };

export async function call<T = Answer>(handler: Handler, o: CallOptions) {
  const headers = new Headers(o.headers);
  if (o.token) headers.set("authorization", `Bearer ${o.token}`);
  if (o.cookie) headers.set("cookie", o.cookie);
  let body: string | undefined = o.rawBody;
  if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers.set("content-type", "application/json");
  }
  const req = new NextRequest(new URL(o.path, "http://localhost:3000"), {
    method: o.method ?? "POST",
    headers,
    body,
  });
  const res = await handler(req, { params: Promise.resolve(o.params ?? {}) });
  const text = await res.text();
  // A download (CSV) is not JSON: its body stays unread here.
  const type = res.headers.get("content-type");
  const isJson = !type || type.includes("json");
  return { status: res.status, headers: res.headers, json: (text && isJson ? JSON.parse(text) : null) as T };
}

/** A multipart/form-data body of text parts, as `call` sends it (rawBody and its content type). */
export function multipartOf(parts: Record<string, string>): {
  rawBody: string;
  headers: Record<string, string>;
} {
  const boundary = "----form-boundary-7MA4YWxkTrZu0gW";
  const rawBody = [
    ...Object.entries(parts).map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    ),
    `--${boundary}--\r\n`,
  ].join("");
  return { rawBody, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}
