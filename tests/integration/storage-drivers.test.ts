import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDiskStorage } from "@/lib/storage/disk";
import { type StorageDriver, StorageError } from "@/lib/storage/driver";
import { createS3Storage } from "@/lib/storage/s3";
import { PNG, SVG } from "../support/images";
import { type S3TestServer, startS3Server } from "../support/s3-server";

// The two storage drivers keep the same promises (lib/storage/driver.ts): the disk driver on a
// temporary directory, the S3 driver against a local server speaking S3's REST protocol with
// Signature Version 4 (tests/support/s3-server.ts).

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), "storage-disk-"));
let s3: S3TestServer;
const drivers: Record<"disk" | "s3", () => StorageDriver> = {
  disk: () => createDiskStorage(root),
  s3: () =>
    createS3Storage({
      bucket: s3.bucket,
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    }),
};

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const newKey = (name = "logo.png") => `accounts/${crypto.randomUUID()}/apps/${crypto.randomUUID()}/${name}`;

describe.each(["disk", "s3"] as const)("the %s driver", (kind) => {
  it("stores bytes and gives them back with their type and size", async () => {
    const store = drivers[kind]();
    const key = newKey();
    await store.put(key, PNG, "image/png");
    const got = await store.get(key);
    expect(got).not.toBeNull();
    expect(got!.contentType).toBe("image/png");
    expect(got!.size).toBe(PNG.byteLength);
    expect(new Uint8Array(await readAll(got!.body))).toEqual(PNG);
  });

  it("answers null for a key with no object", async () => {
    expect(await drivers[kind]().get(newKey())).toBeNull();
  });

  it("replaces the object at a key", async () => {
    const store = drivers[kind]();
    const key = newKey("thumb");
    await store.put(key, PNG, "image/png");
    await store.put(key, SVG, "image/svg+xml");
    const got = await store.get(key);
    expect(got!.contentType).toBe("image/svg+xml");
    expect(new Uint8Array(await readAll(got!.body))).toEqual(SVG);
  });

  it("deletes an object, and deleting a missing one is not an error", async () => {
    const store = drivers[kind]();
    const key = newKey();
    await store.put(key, PNG, "image/png");
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
    await expect(store.delete(key)).resolves.toBeUndefined();
  });

  it.each(["../escape.png", "a/../../b", "/absolute", "a//b", "a/.meta", ""])(
    "refuses the key %j before touching storage",
    async (key) => {
      const store = drivers[kind]();
      const before = s3.requests.length;
      await expect(store.put(key, PNG, "image/png")).rejects.toThrow(/invalid storage key/);
      await expect(store.get(key)).rejects.toThrow(/invalid storage key/);
      await expect(store.delete(key)).rejects.toThrow(/invalid storage key/);
      expect(s3.requests.length).toBe(before);
    },
  );
});

describe("the disk driver", () => {
  it("keeps each object in a file at its key under the root, and no temporary file", async () => {
    const key = newKey();
    await createDiskStorage(root).put(key, PNG, "image/png");
    const file = path.join(root, key);
    expect(new Uint8Array(fs.readFileSync(file))).toEqual(PNG);
    const names = fs.readdirSync(path.dirname(file));
    expect(names.filter((n) => n.endsWith(".tmp"))).toEqual([]);
    // the content type's sidecar is hidden: no key segment starts with a dot
    expect(names.sort()).toEqual([".logo.png.meta.json", "logo.png"]);
  });

  it("removes the folders a deletion leaves empty, up to the root, and no folder still in use", async () => {
    const store = createDiskStorage(root);
    const account = `accounts/${crypto.randomUUID()}`;
    const app = `${account}/apps/${crypto.randomUUID()}`;
    const kept = `${account}/apps/${crypto.randomUUID()}/logo/a.png`;
    await store.put(`${app}/logo/a.png`, PNG, "image/png");
    await store.put(`${app}/tools/t1/thumb`, PNG, "image/png");
    await store.put(kept, PNG, "image/png");

    await store.delete(`${app}/logo/a.png`);
    expect(fs.existsSync(path.join(root, app, "logo"))).toBe(false);
    expect(fs.existsSync(path.join(root, app, "tools/t1/thumb"))).toBe(true);

    await store.delete(`${app}/tools/t1/thumb`);
    expect(fs.existsSync(path.join(root, app))).toBe(false);
    // The account's folder still holds another app's image; the root always stays.
    expect(fs.existsSync(path.join(root, kept))).toBe(true);
    await store.delete(kept);
    expect(fs.existsSync(path.join(root, account))).toBe(false);
    expect(fs.existsSync(root)).toBe(true);
  });

  it("turns a disk failure into a storage error that names no path", async () => {
    const key = newKey();
    // A file where the key's folder must go: the write cannot happen.
    const blocker = path.join(root, key.split("/").slice(0, 2).join("/"));
    fs.mkdirSync(path.dirname(blocker), { recursive: true });
    fs.writeFileSync(blocker, "in the way");
    const err = await createDiskStorage(root)
      .put(key, PNG, "image/png")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    const message = (err as StorageError).userMessage;
    expect(message).toMatchObject({
      key: "storageFailed",
      vars: { code: expect.stringMatching(/^E[A-Z]+$/) },
    });
    expect(JSON.stringify(message)).not.toContain(root);
  });
});

describe("the S3 driver", () => {
  it("signs every request (the server checks Signature Version 4) and uses path-style URLs", async () => {
    const key = newKey();
    await drivers.s3().put(key, PNG, "image/png");
    expect(s3.objects.get(key)?.contentType).toBe("image/png");
    expect(s3.requests.at(-1)).toEqual({ method: "PUT", path: `/${s3.bucket}/${key}`, status: 200 });
  });

  it("passes the service's own error text on (storage errors are shown as-is)", async () => {
    const wrongSecret = createS3Storage({
      bucket: s3.bucket,
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: "not-the-secret" },
    });
    const err = await wrongSecret.put(newKey(), PNG, "image/png").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).userMessage).toEqual({
      key: "storageError",
      vars: {
        message:
          "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
      },
    });

    const noBucket = createS3Storage({
      bucket: "no-such-bucket",
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    const err2 = await noBucket.get(newKey()).catch((e: unknown) => e);
    expect((err2 as StorageError).userMessage).toEqual({
      key: "storageError",
      vars: { message: "The specified bucket does not exist" },
    });
  });

  it("says the storage cannot be reached, without naming its host, when nothing answers", async () => {
    const closed = await startS3Server();
    await closed.close();
    const store = createS3Storage({
      bucket: closed.bucket,
      region: closed.region,
      endpoint: closed.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: closed.accessKeyId, secretAccessKey: closed.secretAccessKey },
    });
    const err = await store.put(newKey(), PNG, "image/png").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).userMessage).toBe("storageUnreachable");
  });
});
