import "server-only";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { assertValidKey, type StorageDriver, StorageError, type StoredObject } from "./driver";

/**
 * Files on the local disk, one file per key under `root`. Beside each file, a hidden sidecar
 * keeps its content type (key segments never start with a dot, so no key can name one).
 */
export function createDiskStorage(root: string): StorageDriver {
  const base = path.resolve(root);

  // Keys are validated, and the resolved path is checked again: nothing outside `base`.
  const fileOf = (key: string) => {
    assertValidKey(key);
    const file = path.resolve(base, ...key.split("/"));
    if (!file.startsWith(base + path.sep)) throw new Error(`storage key escapes the root: ${key}`);
    return file;
  };
  const metaOf = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.meta.json`);

  return {
    kind: "disk",

    async put(key, bytes, contentType) {
      const file = fileOf(key);
      const dir = path.dirname(file);
      // Written aside, then renamed over the old file: a reader sees the old object or the new one.
      const tmp = path.join(dir, `.${path.basename(file)}.${crypto.randomUUID()}.tmp`);
      try {
        // A deletion prunes folders it leaves empty: one may vanish between our mkdir and our
        // first write (then it is made again). Once the sidecar is written it is not empty.
        for (let attempt = 1; ; attempt++) {
          try {
            await fs.mkdir(dir, { recursive: true });
            await fs.writeFile(metaOf(file), JSON.stringify({ contentType }));
            break;
          } catch (err) {
            if (!isCode(err, "ENOENT") || attempt >= 3) throw err;
          }
        }
        await fs.writeFile(tmp, bytes);
        await fs.rename(tmp, file);
      } catch (err) {
        await fs.rm(tmp, { force: true }).catch(() => {});
        throw diskError(err);
      }
    },

    async get(key): Promise<StoredObject | null> {
      const file = fileOf(key);
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(file, "r");
      } catch (err) {
        if (isCode(err, "ENOENT") || isCode(err, "ENOTDIR") || isCode(err, "EISDIR")) return null;
        throw diskError(err);
      }
      try {
        const stat = await handle.stat();
        if (!stat.isFile()) {
          await handle.close();
          return null;
        }
        const contentType = await readContentType(metaOf(file));
        const body = Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>;
        return { body, size: stat.size, contentType };
      } catch (err) {
        await handle.close().catch(() => {});
        throw diskError(err);
      }
    },

    async delete(key) {
      const file = fileOf(key);
      try {
        await fs.rm(file, { force: true });
        await fs.rm(metaOf(file), { force: true });
      } catch (err) {
        throw diskError(err);
      }
      await pruneEmptyFolders(path.dirname(file), base);
    },
  };
}

/**
 * Removes `dir` and its parents up to (not including) `base` while they are empty, so deleting
 * an app's images leaves no empty folders behind. Stops at the first folder that is not empty
 * (or is gone, or cannot be removed): the object itself is already deleted either way.
 */
async function pruneEmptyFolders(dir: string, base: string): Promise<void> {
  for (let d = dir; d.startsWith(base + path.sep); d = path.dirname(d)) {
    try {
      await fs.rmdir(d);
    } catch {
      return;
    }
  }
}

async function readContentType(meta: string): Promise<string | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(meta, "utf8")) as { contentType?: unknown };
    return typeof parsed.contentType === "string" ? parsed.contentType : undefined;
  } catch {
    return undefined;
  }
}

const isCode = (err: unknown, code: string) => (err as NodeJS.ErrnoException | null)?.code === code;

// The user sees what went wrong, never the server's paths (which Node's messages contain).
function diskError(err: unknown): StorageError {
  const code = (err as NodeJS.ErrnoException | null)?.code ?? "EIO";
  if (code === "ENOSPC" || code === "EDQUOT") return new StorageError("storageFull", { cause: err });
  if (code === "EACCES" || code === "EPERM" || code === "EROFS")
    return new StorageError("storageDenied", { cause: err });
  return new StorageError({ key: "storageFailed", vars: { code } }, { cause: err });
}
