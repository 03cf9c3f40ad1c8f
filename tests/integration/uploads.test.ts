import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as filesRoute from "@/app/api/files/[...key]/route";
import { deleteAppRow, insertTool } from "@/db/queries/apps";
import { findUploadByKey, listAppUploadKeys } from "@/db/queries/uploads";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import type { UploadAnswer } from "@/lib/uploads/schemas";
import { deleteAppUploads } from "@/lib/uploads/upload-image";
import { createBuilder, createPublishedApp } from "../support/factories";
import { NOT_IMAGES, PNG, pngOfSize, SVG, SVG_WITH_SCRIPT } from "../support/images";
import { fetchFile, type Handler, removeUpload, send, upload } from "../support/uploads-client";

// Images of the editor: checked by content, refused at 10,000,000 bytes
// before the body is read, stored at the spec's keys, served only as images, deleted from
// storage on removal. Stored on disk in a directory of this file's own.

const STORAGE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "uploads-test-"));
// Read once, on the first request (lib/env.ts): set before any.
process.env.STORAGE_DIR = STORAGE_DIR;

const onDisk = (key: string) => path.join(STORAGE_DIR, key);
const error = (code: string, message: string) => ({ error: { code, message } });

/**
 * A body of `total` bytes made on demand: how much the server pulled, and whether it cancelled.
 * With `endless`, the stream never ends after its last byte, as from a client still sending.
 */
function countedBody(total: number, { endless = false } = {}) {
  const chunkSize = 64 * 1024;
  const chunk = new Uint8Array(chunkSize);
  chunk.set(PNG.subarray(0, 8)); // every chunk starts like a PNG
  let sent = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) {
        if (endless) return new Promise<void>(() => {});
        return controller.close();
      }
      const n = Math.min(chunkSize, total - sent);
      sent += n;
      controller.enqueue(chunk.slice(0, n));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, pulled: () => sent, cancelled: () => cancelled };
}

let owner: Awaited<ReturnType<typeof createBuilder>>;
let stranger: Awaited<ReturnType<typeof createBuilder>>;
let admin: Awaited<ReturnType<typeof createBuilder>>;
let appId: string;

beforeAll(async () => {
  owner = await createBuilder();
  stranger = await createBuilder();
  admin = await createBuilder({ isAdmin: true });
  appId = (await createPublishedApp(owner.account.accountId, "Uploads App")).id;
});
afterAll(() => fs.rmSync(STORAGE_DIR, { recursive: true, force: true }));

describe("POST /api/apps/{appId}/uploads: what is an image is decided by its bytes", () => {
  it("accepts a PNG sent as a .txt file of type text/plain, and serves it back as image/png", async () => {
    const res = await upload(appId, owner.token, PNG, "kind=logo", {
      "content-type": "text/plain",
      "content-disposition": 'attachment; filename="logo.txt"',
    });
    expect(res.status).toBe(200);
    const body = res.json as UploadAnswer;
    const base = `accounts/${owner.account.accountId}/apps/${appId}`;
    expect(body).toEqual({
      id: expect.any(String),
      key: `${base}/logo/${body.id}.png`,
      file_url: `/api/files/${base}/logo/${body.id}.png?v=${body.id}`,
      contentType: "image/png",
      size: PNG.byteLength,
    });
    expect(new Uint8Array(fs.readFileSync(onDisk(body.key)))).toEqual(PNG);

    const file = await fetchFile(body.file_url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(file.headers.get("content-length")).toBe(String(PNG.byteLength));
    expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(file.headers.get("content-disposition")).toBeNull();
    expect(new Uint8Array(file.bytes)).toEqual(PNG);
  });

  it.each(Object.entries(NOT_IMAGES))(
    "refuses a file that is no image, named .png (%s)",
    async (_name, bytes) => {
      const before = await listAppUploadKeys(appId);
      const res = await upload(appId, owner.token, bytes, "kind=option", {
        "content-type": "image/png",
        "content-disposition": 'attachment; filename="icon.png"',
      });
      expect(res.status).toBe(400);
      // The spec's words, and why: a builder must learn that only images are taken.
      expect(res.json).toEqual(error("upload/not-an-image", messages.uploadNotAnImage));
      expect(messages.uploadNotAnImage).toMatch(/^Failed to upload image: only image files are accepted/);
      expect(await listAppUploadKeys(appId)).toEqual(before);
    },
  );

  it("accepts an SVG, and serves it so that it can never run as a document", async () => {
    const res = await upload(appId, owner.token, SVG_WITH_SCRIPT, "kind=background", {
      "content-type": "image/svg+xml",
    });
    expect(res.status).toBe(200);
    const body = res.json as UploadAnswer;
    expect(body.key).toBe(`accounts/${owner.account.accountId}/apps/${appId}/background/${body.id}.svg`);
    expect(body.contentType).toBe("image/svg+xml");

    const file = await fetchFile(body.file_url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/svg+xml");
    expect(file.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
    expect(file.headers.get("content-disposition")).toBe("attachment");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(file.bytes)).toEqual(SVG_WITH_SCRIPT);
  });

  it("stores option icons under options/, at the app owner's account even when an admin uploads", async () => {
    const res = await upload(appId, admin.token, SVG, "kind=option");
    expect(res.status).toBe(200);
    const body = res.json as UploadAnswer;
    expect(body.key).toBe(`accounts/${owner.account.accountId}/apps/${appId}/options/${body.id}.svg`);
    expect(fs.existsSync(onDisk(body.key))).toBe(true);
    expect((await findUploadByKey(body.key))?.accountId).toBe(owner.account.accountId);
  });

  it("refuses an unknown kind", async () => {
    const res = await upload(appId, owner.token, PNG, "kind=avatar");
    expect(res.status).toBe(400);
    expect(res.json?.error.code).toBe("INVALID_INPUT");
  });
});

describe("10,000,000 bytes or more: 'File size to large', before the body is read", () => {
  const tooLarge = error("PAYLOAD_TOO_LARGE", messages.fileTooLarge);

  it("refuses a declared length of exactly 10,000,000 bytes without reading the body", async () => {
    const body = countedBody(10_000_000);
    const res = await upload(appId, owner.token, body.stream, "kind=logo", { "content-length": "10000000" });
    expect(res.status).toBe(413);
    expect(res.json).toEqual(tooLarge);
    expect(messages.fileTooLarge).toBe("File size to large");
    expect(body.pulled()).toBeLessThanOrEqual(2 * 64 * 1024);
  });

  it("refuses a chunked body of exactly 10,000,000 bytes without waiting for its end", async () => {
    // The stream does not end after its 10,000,000th byte: an answer proves the server stopped
    // reading there, and the cancellation that it abandoned the rest.
    const body = countedBody(10_000_000, { endless: true });
    const res = await upload(appId, owner.token, body.stream);
    expect(res.status).toBe(413);
    expect(res.json).toEqual(tooLarge);
    expect(body.cancelled()).toBe(true);
  });

  it("stops reading a chunked body as soon as it passes the limit", async () => {
    const body = countedBody(200_000_000);
    const res = await upload(appId, owner.token, body.stream);
    expect(res.status).toBe(413);
    expect(res.json).toEqual(tooLarge);
    expect(body.cancelled()).toBe(true);
    expect(body.pulled()).toBeLessThan(10_000_000 + 2 * 64 * 1024);
  });

  it("accepts an image of 9,999,999 bytes", async () => {
    const res = await upload(appId, owner.token, pngOfSize(9_999_999));
    expect(res.status).toBe(200);
    expect(res.json?.size).toBe(9_999_999);
    expect(fs.statSync(onDisk(res.json!.key)).size).toBe(9_999_999);
  });
});

describe("tool thumbnails: one fixed key per tool", () => {
  it("need a tool of this app", async () => {
    const noTool = await upload(appId, owner.token, PNG, "kind=thumb");
    expect(noTool.status).toBe(400);
    expect(noTool.json?.error.code).toBe("INVALID_INPUT");

    const otherApp = await createPublishedApp(stranger.account.accountId);
    const foreign = await insertTool({ appId: otherApp.id, title: "T", path: "t", position: 0, content: {} });
    const res = await upload(appId, owner.token, PNG, `kind=thumb&toolId=${foreign.id}`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual(error("NOT_FOUND", messages.toolNotFound));
  });

  it("are stored at accounts/{account}/apps/{app}/tools/{toolId}/thumb; a new one replaces it under a new URL", async () => {
    const tool = await insertTool({ appId, title: "Thumbs", path: "thumbs", position: 0, content: {} });
    const key = `accounts/${owner.account.accountId}/apps/${appId}/tools/${tool.id}/thumb`;
    const first = await upload(appId, owner.token, PNG, `kind=thumb&toolId=${tool.id}`);
    expect(first.status).toBe(200);
    expect(first.json?.key).toBe(key);

    const second = await upload(appId, owner.token, SVG, `kind=thumb&toolId=${tool.id}`);
    expect(second.status).toBe(200);
    expect(second.json?.key).toBe(key);
    expect(second.json?.file_url).not.toBe(first.json?.file_url);
    expect(new Uint8Array(fs.readFileSync(onDisk(key)))).toEqual(SVG);
    expect((await findUploadByKey(key))?.id).toBe(second.json?.id);

    // The current URL may be cached for good; the old one must be revalidated, and gets the new image.
    const current = await fetchFile(second.json!.file_url);
    expect(current.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(current.headers.get("content-type")).toBe("image/svg+xml");
    const stale = await fetchFile(first.json!.file_url);
    expect(stale.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    expect(new Uint8Array(stale.bytes)).toEqual(SVG);

    // The replaced upload is gone: deleting it by its old id finds nothing.
    const gone = await removeUpload(appId, first.json!.id, owner.token);
    expect(gone.status).toBe(404);
    expect(fs.existsSync(onDisk(key))).toBe(true);
  });
});

describe("GET /api/files/{...key}", () => {
  it("answers 404 'File not found' for an unknown key, and for a key that leaves the storage root", async () => {
    for (const key of [
      `accounts/${owner.account.accountId}/apps/${appId}/logo/nothing.png`,
      "../../etc/passwd",
    ]) {
      const res = await send(filesRoute.GET as Handler, {
        method: "GET",
        path: `/api/files/${key}`,
        params: { key: key.split("/") },
      });
      expect(res.status).toBe(404);
      expect(res.json).toEqual(error("NOT_FOUND", messages.fileNotFound));
    }
  });

  it("answers 304 to a request that already holds the image", async () => {
    const up = await upload(appId, owner.token, PNG);
    const first = await fetchFile(up.json!.file_url);
    const again = await fetchFile(up.json!.file_url, { "if-none-match": first.headers.get("etag")! });
    expect(again.status).toBe(304);
    expect(again.bytes.byteLength).toBe(0);
  });
});

describe("DELETE /api/apps/{appId}/uploads/{uploadId}", () => {
  it("deletes the stored object and its record; the file is then not found", async () => {
    const up = await upload(appId, owner.token, PNG, "kind=option");
    const key = up.json!.key as string;
    expect(fs.existsSync(onDisk(key))).toBe(true);

    const res = await removeUpload(appId, up.json!.id, owner.token);
    expect(res.status).toBe(200);
    expect(fs.existsSync(onDisk(key))).toBe(false);
    expect(await findUploadByKey(key)).toBeUndefined();
    expect((await fetchFile(up.json!.file_url)).status).toBe(404);

    const again = await removeUpload(appId, up.json!.id, owner.token);
    expect(again.status).toBe(404);
    expect(again.json).toEqual(error("NOT_FOUND", messages.fileNotFound));
  });

  it("answers 'File not found' for an upload of another app", async () => {
    const otherApp = await createPublishedApp(owner.account.accountId, "Second");
    const up = await upload(otherApp.id, owner.token, PNG);
    const res = await removeUpload(appId, up.json!.id, owner.token);
    expect(res.status).toBe(404);
    expect(res.json).toEqual(error("NOT_FOUND", messages.fileNotFound));
    expect(fs.existsSync(onDisk(up.json!.key))).toBe(true);
  });
});

describe("only the app's owner (or an admin) uploads and deletes", () => {
  it("another builder gets 404, as if the app did not exist, and nothing is stored or deleted", async () => {
    const before = await listAppUploadKeys(appId);
    const res = await upload(appId, stranger.token, PNG);
    expect(res.status).toBe(404);
    expect(res.json).toEqual(error("NOT_FOUND", messages.appNotFound));
    expect(await listAppUploadKeys(appId)).toEqual(before);

    const mine = await upload(appId, owner.token, PNG);
    const del = await removeUpload(appId, mine.json!.id, stranger.token);
    expect(del.status).toBe(404);
    expect(fs.existsSync(onDisk(mine.json!.key))).toBe(true);
  });

  it("an anonymous caller gets 401", async () => {
    expect((await upload(appId, undefined, PNG)).status).toBe(401);
  });
});

describe("a storage failure", () => {
  it("reaches the user in the storage's words, and leaves no record", async () => {
    const builder = await createBuilder();
    const app = await createPublishedApp(builder.account.accountId);
    // A file where the account's folder must go: the disk refuses the write.
    fs.mkdirSync(path.join(STORAGE_DIR, "accounts"), { recursive: true });
    fs.writeFileSync(path.join(STORAGE_DIR, "accounts", builder.account.accountId), "in the way");
    const res = await upload(app.id, builder.token, PNG);
    expect(res.status).toBe(500);
    expect(res.json?.error.code).toBe("STORAGE_ERROR");
    expect(res.json?.error.message).toMatch(
      new RegExp(`^${fillTemplate(messages.storageFailed, { code: "E[A-Z]+" }).replace(/[()]/g, "\\$&")}$`),
    );
    expect(await listAppUploadKeys(app.id)).toEqual([]);
  });
});

describe("deleteAppUploads", () => {
  it("deletes every stored object of an app deleted with it", async () => {
    const app = await createPublishedApp(owner.account.accountId, "To delete");
    const keys = [];
    for (const [kind, bytes] of [
      ["logo", PNG],
      ["background", SVG],
      ["option", PNG],
    ] as const) {
      const res = await upload(app.id, owner.token, bytes, `kind=${kind}`);
      keys.push(res.json!.key as string);
    }
    expect(keys.every((k) => fs.existsSync(onDisk(k)))).toBe(true);

    const deleted = await deleteAppUploads(app.id, () => deleteAppRow(app.id));
    expect(deleted).toBe(true);
    expect(keys.filter((k) => fs.existsSync(onDisk(k)))).toEqual([]);
    expect(await listAppUploadKeys(app.id)).toEqual([]);
  });
});
