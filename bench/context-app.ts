import crypto from "node:crypto";
import fs from "node:fs";
import { Readable } from "node:stream";
import { insertAccountIfMissing } from "@/db/queries/accounts";
import { insertApp } from "@/db/queries/apps";
import { insertUser } from "@/db/queries/users";
import type { App } from "@/db/schema";
import { planOf } from "@/lib/plans/owner-plan";

// What the data-source benchmarks (bench/context.ts, bench/retrieval-quality.ts) ingest into: an
// app of a builder of its own, and files uploaded as the browser sends them.

const APP_URL = process.env.APP_URL ?? "http://localhost:3000";

/** The plan of every benchmark app's owner: the top one (upload cap and item limit well above the files). */
const BENCH_PLAN = "agency";
/** That plan, as a route hands it to the services (ctx.owner). */
export const BENCH_OWNER = planOf(BENCH_PLAN);

/** A builder on the top plan and one app of theirs. */
export async function newApp(label: string): Promise<App> {
  const user = (await insertUser({
    tenantId: null,
    email: `bench-${crypto.randomUUID().slice(0, 8)}@example.com`,
    emailVerifiedAt: new Date(),
  }))!;
  const account = await insertAccountIfMissing({
    userId: user.id,
    accountType: "builder",
    appId: null,
    plan: BENCH_PLAN,
  });
  return insertApp({ ownerAccountId: account.accountId, header: label });
}

/** The upload as the browser sends it: the file's bytes streamed as the body, its length declared. */
export function uploadOf(file: string): Request {
  return new Request(`${APP_URL}/api/context/ingest/file`, {
    method: "POST",
    headers: { "content-type": "application/octet-stream", "content-length": String(fs.statSync(file).size) },
    body: Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>,
    duplex: "half",
  } as RequestInit);
}
