import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

// A small S3 server for tests, speaking the REST protocol the AWS SDK speaks: path-style URLs
// (/{bucket}/{key}), PutObject, GetObject and DeleteObject, S3's XML errors, and AWS Signature
// Version 4 checked over every request with the one key pair it knows. The storage driver
// (lib/storage/s3.ts) runs unchanged against it. Listens on 127.0.0.1 only.

export type S3Object = { body: Buffer; contentType: string };

export type S3TestServer = {
  /** The endpoint to give the client (S3_ENDPOINT), with path-style addressing. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The objects of the bucket, by key. */
  objects: Map<string, S3Object>;
  /** Every request received: method, path and the status answered. */
  requests: { method: string; path: string; status: number }[];
  /** Answers every request with this status and S3 error code until cleared (e.g. 503 SlowDown). */
  failWith(error: { status: number; code: string; message: string } | null): void;
  /** Environment variables that point the app at this server. */
  env(): Record<string, string>;
  close(): Promise<void>;
};

const sha256 = (data: string | Buffer) => crypto.createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => crypto.createHmac("sha256", key).update(data).digest();

function errorXml(code: string, message: string, resource: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><Resource>${resource}</Resource><RequestId>${crypto.randomUUID()}</RequestId></Error>`;
}

/** The SigV4 signature of a request as the client must have computed it, or an error code. */
function checkSignature(
  req: http.IncomingMessage,
  body: Buffer,
  creds: { accessKeyId: string; secretAccessKey: string; region: string },
): "ok" | "AccessDenied" | "InvalidAccessKeyId" | "SignatureDoesNotMatch" | "XAmzContentSHA256Mismatch" {
  const auth = req.headers.authorization ?? "";
  const m = auth.match(
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/,
  );
  if (!m) return "AccessDenied";
  const [, keyId, date, region, signedHeaders, signature] = m as unknown as string[];
  if (keyId !== creds.accessKeyId) return "InvalidAccessKeyId";
  const amzDate = String(req.headers["x-amz-date"] ?? "");
  const payloadHash = String(req.headers["x-amz-content-sha256"] ?? "");
  if (!amzDate.startsWith(date!) || region !== creds.region) return "SignatureDoesNotMatch";
  if (payloadHash !== "UNSIGNED-PAYLOAD" && payloadHash !== sha256(body)) return "XAmzContentSHA256Mismatch";

  const url = new URL(req.url ?? "/", "http://s3.local");
  // Sorted by name, then value, each as the client encoded it.
  const query = url.search
    .slice(1)
    .split("&")
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf("=");
      return at < 0 ? [pair, ""] : [pair.slice(0, at), pair.slice(at + 1)];
    })
    .sort(([a, x], [b, y]) => (a! < b! ? -1 : a! > b! ? 1 : x! < y! ? -1 : x! > y! ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
  const names = signedHeaders!.split(";");
  const headers = names
    .map(
      (n) =>
        `${n}:${String(req.headers[n] ?? "")
          .trim()
          .replace(/\s+/g, " ")}\n`,
    )
    .join("");
  const canonical = [req.method, url.pathname, query, headers, signedHeaders, payloadHash].join("\n");
  const scope = `${date}/${region}/s3/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonical)].join("\n");
  let key: Buffer = hmac(`AWS4${creds.secretAccessKey}`, date!);
  for (const part of [region!, "s3", "aws4_request"]) key = hmac(key, part);
  const expected = crypto.createHmac("sha256", key).update(toSign).digest("hex");
  return crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(signature!))
    ? "ok"
    : "SignatureDoesNotMatch";
}

const SIGNATURE_ERRORS = {
  AccessDenied: [403, "Access Denied"],
  InvalidAccessKeyId: [403, "The AWS Access Key Id you provided does not exist in our records."],
  SignatureDoesNotMatch: [
    403,
    "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
  ],
  XAmzContentSHA256Mismatch: [
    400,
    "The provided 'x-amz-content-sha256' header does not match what was computed.",
  ],
} as const;

export async function startS3Server(
  opts: { bucket?: string; region?: string; accessKeyId?: string; secretAccessKey?: string } = {},
): Promise<S3TestServer> {
  const creds = {
    accessKeyId: opts.accessKeyId ?? "AKIATESTSTORAGE0001",
    secretAccessKey: opts.secretAccessKey ?? crypto.randomBytes(30).toString("base64"),
    region: opts.region ?? "us-east-1",
  };
  const bucket = opts.bucket ?? "builder-test";
  const objects = new Map<string, S3Object>();
  const requests: S3TestServer["requests"] = [];
  let failure: { status: number; code: string; message: string } | null = null;

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? "/", "http://s3.local");
    const send = (
      status: number,
      headers: Record<string, string | number> = {},
      payload?: Buffer | string,
    ) => {
      requests.push({ method: req.method ?? "", path: url.pathname, status });
      res.writeHead(status, { "x-amz-request-id": crypto.randomUUID(), ...headers });
      res.end(req.method === "HEAD" ? undefined : payload);
    };
    const fail = (status: number, code: string, message: string) =>
      send(status, { "content-type": "application/xml" }, errorXml(code, message, url.pathname));

    if (failure) return fail(failure.status, failure.code, failure.message);
    const signature = checkSignature(req, body, creds);
    if (signature !== "ok")
      return fail(SIGNATURE_ERRORS[signature][0], signature, SIGNATURE_ERRORS[signature][1]);

    // Path-style: /{bucket}/{key...}, the key percent-encoded by the client.
    const [, name, ...rest] = url.pathname.split("/");
    if (name !== bucket) return fail(404, "NoSuchBucket", "The specified bucket does not exist");
    const key = decodeURIComponent(rest.join("/"));
    if (!key) return fail(400, "InvalidRequest", "A key is required");

    if (req.method === "PUT") {
      objects.set(key, { body, contentType: String(req.headers["content-type"] ?? "binary/octet-stream") });
      return send(200, { etag: `"${crypto.createHash("md5").update(body).digest("hex")}"` });
    }
    if (req.method === "GET" || req.method === "HEAD") {
      const object = objects.get(key);
      if (!object) return fail(404, "NoSuchKey", "The specified key does not exist.");
      return send(
        200,
        {
          "content-type": object.contentType,
          "content-length": object.body.byteLength,
          etag: `"${crypto.createHash("md5").update(object.body).digest("hex")}"`,
          "last-modified": new Date().toUTCString(),
        },
        object.body,
      );
    }
    if (req.method === "DELETE") {
      objects.delete(key);
      return send(204);
    }
    return fail(405, "MethodNotAllowed", "The specified method is not allowed against this resource.");
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    bucket,
    region: creds.region,
    accessKeyId: creds.accessKeyId,
    secretAccessKey: creds.secretAccessKey,
    objects,
    requests,
    failWith(error) {
      failure = error;
    },
    env: () => ({
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: creds.region,
      S3_ACCESS_KEY_ID: creds.accessKeyId,
      S3_SECRET_ACCESS_KEY: creds.secretAccessKey,
      S3_FORCE_PATH_STYLE: "true",
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
