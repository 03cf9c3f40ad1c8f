import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "@/lib/messages";
import { createBuilder, createPublishedApp } from "../support/factories";
import { PNG } from "../support/images";
import { startS3Server } from "../support/s3-server";
import { fetchFile, removeUpload, upload } from "../support/uploads-client";

// With S3_* set, uploads go to S3-compatible storage: the whole path (upload, serve, delete)
// against a local server speaking S3's REST protocol (tests/support/s3-server.ts).

const s3 = await startS3Server();
// lib/env.ts reads the environment once, on the first request: set before any.
Object.assign(process.env, s3.env(), { STORAGE_DIR: "/nonexistent/uploads-must-not-be-used" });

let owner: Awaited<ReturnType<typeof createBuilder>>;
let appId: string;
beforeAll(async () => {
  owner = await createBuilder();
  appId = (await createPublishedApp(owner.account.accountId)).id;
});
afterAll(() => s3.close());

describe("uploads on S3-compatible storage", () => {
  it("stores the image in the bucket at its key, serves it from there, and deletes it there", async () => {
    const up = await upload(appId, owner.token, PNG, "kind=option");
    expect(up.status).toBe(200);
    const { key, id } = up.json!;
    expect(key).toBe(`accounts/${owner.account.accountId}/apps/${appId}/options/${id}.png`);
    expect(s3.objects.get(key)).toEqual({ body: Buffer.from(PNG), contentType: "image/png" });
    expect(fs.existsSync("/nonexistent")).toBe(false);

    const file = await fetchFile(`/api/files/${key}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(file.bytes)).toEqual(PNG);

    const del = await removeUpload(appId, id, owner.token);
    expect(del.status).toBe(200);
    expect(s3.objects.has(key)).toBe(false);
  });

  it("shows the storage service's error as-is, and keeps nothing", async () => {
    s3.failWith({ status: 403, code: "AccessDenied", message: "Access Denied" });
    try {
      const up = await upload(appId, owner.token, PNG);
      expect(up.status).toBe(500);
      expect(up.json).toEqual({ error: { code: "STORAGE_ERROR", message: "Access Denied" } });
    } finally {
      s3.failWith(null);
    }
    expect([...s3.objects.keys()].filter((k) => k.includes("/logo/"))).toEqual([]);
  });

  it("answers 'File not found' when the bucket has lost a recorded object", async () => {
    const up = await upload(appId, owner.token, PNG);
    s3.objects.delete(up.json!.key);
    const file = await fetchFile(up.json!.file_url);
    expect(file.status).toBe(404);
    expect(file.json).toEqual({ error: { code: "NOT_FOUND", message: messages.fileNotFound } });
  });
});
