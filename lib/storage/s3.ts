import "server-only";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { assertValidKey, type StorageDriver, StorageError, type StoredObject } from "./driver";

export type S3Config = {
  bucket: string;
  region: string;
  /** Another S3-compatible service (MinIO, R2, ...); unset: AWS. */
  endpoint?: string;
  /** The bucket in the path rather than the host name, as most S3-compatible services want. */
  forcePathStyle?: boolean;
  /** Unset: the SDK's usual credential chain (instance role, AWS_PROFILE, ...). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

/** Objects in an S3 bucket, through the AWS SDK (so any S3-compatible service works). */
export function createS3Storage(config: S3Config): StorageDriver {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle ?? false,
    credentials: config.credentials,
    // Checksums only where S3 requires them: several S3-compatible services refuse the SDK's
    // default CRC32 headers and trailers.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = config.bucket;

  return {
    kind: "s3",

    async put(key, bytes, contentType) {
      assertValidKey(key);
      try {
        await client.send(
          new PutObjectCommand({
            Bucket,
            Key: key,
            Body: bytes,
            ContentType: contentType,
            ContentLength: bytes.byteLength,
          }),
        );
      } catch (err) {
        throw s3Error(err);
      }
    },

    async get(key): Promise<StoredObject | null> {
      assertValidKey(key);
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!out.Body) return null;
        return {
          body: out.Body.transformToWebStream() as ReadableStream<Uint8Array>,
          size: out.ContentLength,
          contentType: out.ContentType,
        };
      } catch (err) {
        // Only a missing key; a missing bucket (also a 404) is a storage error to show.
        if (err instanceof S3ServiceException && (err.name === "NoSuchKey" || err.name === "NotFound"))
          return null;
        throw s3Error(err);
      }
    },

    async delete(key) {
      assertValidKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      } catch (err) {
        throw s3Error(err);
      }
    },
  };
}

// The service's own words ("Access Denied", "The specified bucket does not exist") are shown
// as-is; a connection failure would name our storage host, so it gets ours.
function s3Error(err: unknown): StorageError {
  if (err instanceof S3ServiceException) {
    const message = err.message && err.message !== "UnknownError" ? err.message : err.name;
    return new StorageError({ key: "storageError", vars: { message } }, { cause: err });
  }
  return new StorageError("storageUnreachable", { cause: err });
}
