import "server-only";
import { env } from "@/lib/env";
import { createDiskStorage } from "./disk";
import type { StorageDriver } from "./driver";
import { createS3Storage } from "./s3";

export { isValidKey, type StorageDriver, StorageError, type StoredObject } from "./driver";

let driver: StorageDriver | undefined;

/** The storage of uploaded files: S3 when S3_BUCKET is set, else the disk under STORAGE_DIR. */
export function storage(): StorageDriver {
  driver ??= fromEnv();
  return driver;
}

function fromEnv(): StorageDriver {
  const e = env();
  if (!e.S3_BUCKET) return createDiskStorage(e.STORAGE_DIR);
  const hasId = Boolean(e.S3_ACCESS_KEY_ID);
  if (hasId !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new Error(
      "Invalid environment configuration: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither",
    );
  }
  return createS3Storage({
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    credentials: hasId
      ? { accessKeyId: e.S3_ACCESS_KEY_ID!, secretAccessKey: e.S3_SECRET_ACCESS_KEY! }
      : undefined,
  });
}
