import fs from "node:fs";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as uploadRoute from "@/app/api/apps/[appId]/uploads/[uploadId]/route";
import * as uploadsRoute from "@/app/api/apps/[appId]/uploads/route";
import * as filesRoute from "@/app/api/files/[...key]/route";
import { messages } from "@/lib/messages";
import { createBuilder, createPublishedApp, fromIp } from "../support/factories";
import { PNG } from "../support/images";
import { startS3Server } from "../support/s3-server";

// With S3_* set, uploads go to S3-compatible storage: the whole path (upload, serve, delete)
// against a local server speaking S3's REST protocol (tests/support/s3-server.ts).

const s3 = await startS3Server();
// lib/env.ts reads the environment once, on the first request: set before any.
Object.assign(process.env, s3.env(), { STORAGE_DIR: "/nonexistent/uploads-must-not-be-used" });

type Handler = (
  req: NextRequest,
  ctx: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;
const APP_URL = process.env.APP_URL ?? "http://localhost:3000";

async function send(
  handler: Handler,
  method: string,
  path: string,
  params: Record<string, string | string[]>,
  token?: string,
  body?: Uint8Array,
) {
  const headers = new Headers(fromIp());
  if (token) headers.set("authorization", `Bearer ${token}`);
  const res = await handler(
    new NextRequest(new URL(path, APP_URL), { method, headers, body: body as BodyInit }),
    {
      params: Promise.resolve(params),
    },
  );
  const bytes = Buffer.from(await res.arrayBuffer());
  const json = res.headers.get("content-type")?.startsWith("application/json")
    ? JSON.parse(bytes.toString())
    : null;
  return { status: res.status, headers: res.headers, json, bytes };
}

let owner: Awaited<ReturnType<typeof createBuilder>>;
let appId: string;
beforeAll(async () => {
  owner = await createBuilder();
  appId = (await createPublishedApp(owner.account.accountId)).id;
});
afterAll(() => s3.close());

describe("uploads on S3-compatible storage", () => {
  it("stores the image in the bucket at its key, serves it from there, and deletes it there", async () => {
    const up = await send(
      uploadsRoute.POST as Handler,
      "POST",
      `/api/apps/${appId}/uploads?kind=option`,
      { appId },
      owner.token,
      PNG,
    );
    expect(up.status).toBe(200);
    const key = up.json.key as string;
    expect(key).toBe(`accounts/${owner.account.accountId}/apps/${appId}/options/${up.json.id}.png`);
    expect(s3.objects.get(key)).toEqual({ body: Buffer.from(PNG), contentType: "image/png" });
    expect(fs.existsSync("/nonexistent")).toBe(false);

    const file = await send(filesRoute.GET as Handler, "GET", `/api/files/${key}`, { key: key.split("/") });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(file.bytes)).toEqual(PNG);

    const del = await send(
      uploadRoute.DELETE as Handler,
      "DELETE",
      `/api/apps/${appId}/uploads/${up.json.id}`,
      {
        appId,
        uploadId: up.json.id,
      },
      owner.token,
    );
    expect(del.status).toBe(200);
    expect(s3.objects.has(key)).toBe(false);
  });

  it("shows the storage service's error as-is, and keeps nothing", async () => {
    s3.failWith({ status: 403, code: "AccessDenied", message: "Access Denied" });
    try {
      const up = await send(
        uploadsRoute.POST as Handler,
        "POST",
        `/api/apps/${appId}/uploads?kind=logo`,
        { appId },
        owner.token,
        PNG,
      );
      expect(up.status).toBe(500);
      expect(up.json).toEqual({ error: { code: "STORAGE_ERROR", message: "Access Denied" } });
    } finally {
      s3.failWith(null);
    }
    expect([...s3.objects.keys()].filter((k) => k.includes("/logo/"))).toEqual([]);
  });

  it("answers 'File not found' when the bucket has lost a recorded object", async () => {
    const up = await send(
      uploadsRoute.POST as Handler,
      "POST",
      `/api/apps/${appId}/uploads?kind=logo`,
      { appId },
      owner.token,
      PNG,
    );
    s3.objects.delete(up.json.key);
    const file = await send(filesRoute.GET as Handler, "GET", `/api/files/${up.json.key}`, {
      key: up.json.key.split("/"),
    });
    expect(file.status).toBe(404);
    expect(file.json).toEqual({ error: { code: "NOT_FOUND", message: messages.fileNotFound } });
  });
});
