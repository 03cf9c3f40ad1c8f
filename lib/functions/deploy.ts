import "server-only";
import { createHash } from "node:crypto";
import {
  findAppFunction,
  listAppFunctions,
  markFunctionDeploying,
  saveFunctionDeployed,
  saveFunctionFailed,
} from "@/db/queries/app-functions";
import { listAppSecrets } from "@/db/queries/app-secrets";
import { listSecretRequestBodies } from "@/db/queries/space-chat";
import { listAppFilesWithContent } from "@/db/queries/space-files";
import type { App, AppFunction } from "@/db/schema";
import { FUNCTION_NAME_PATTERN } from "@/lib/constants";
import { appOrigin } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";
import { describeSecrets, type SecretRequirement } from "@/lib/secrets/requests";
import { assertSpaceApp } from "@/lib/space/commit";
import { fillTemplate } from "@/lib/text";
import { buildFunctionCode } from "./bundle";
import type { FunctionDeployResult, FunctionListAnswer, FunctionsDeployAnswer } from "./schemas";

// Deploying a space app's functions: each `functions/<name>.ts|js` of the app's current files is a
// function. A deploy checks the code builds and names no secret the app lacks, then stores the
// code in app_functions, where every instance reads it to run the function (./public-call.ts).

type FunctionFile = { name: string; path: string; content: string };

const FILE = /^functions\/([^/]+)\.(ts|js)$/;
const RESERVED_NAME = "deploy";

/** The function files of the app's current version, by name (a .ts beats a .js of the same name). */
async function functionFiles(appId: string): Promise<Map<string, FunctionFile>> {
  const out = new Map<string, FunctionFile>();
  for (const file of await listAppFilesWithContent(appId)) {
    const m = FILE.exec(file.path);
    // "deploy" is no function: /functions/deploy is the deploy-all route, its URL could not answer.
    if (!m || !FUNCTION_NAME_PATTERN.test(m[1]!) || m[1] === RESERVED_NAME) continue;
    const name = m[1]!;
    if (out.has(name) && m[2] === "js") continue;
    out.set(name, { name, path: file.path, content: file.content });
  }
  return out;
}

/** The public URL of a function (it answers only while the app is published). */
export function functionUrl(appId: string, name: string): string {
  return `${appOrigin()}/api/apps/${appId}/functions/${name}`;
}

const SECRET_READ = /Deno\.env\.get\(\s*(["'`])([A-Za-z_][A-Za-z0-9_]*)\1\s*\)/g;

/** The environment variables the code reads by a literal name (`Deno.env.get("STRIPE_KEY")`). */
export function secretsReadBy(code: string): string[] {
  return [...new Set([...code.matchAll(SECRET_READ)].map((m) => m[2]!))].sort();
}

const codeHash = (code: string) => createHash("sha256").update(code).digest("hex");

/** Deploys one function file; a failure is recorded (state error) and answered as a result. */
async function deployFile(
  app: App,
  file: FunctionFile,
  secretKeys: Set<string>,
  userId: string,
): Promise<FunctionDeployResult> {
  const fileName = file.path.slice("functions/".length);
  const failed = async (
    reason: string,
    message: string = messages.functionDeployFailed,
    missingSecrets?: SecretRequirement[],
  ): Promise<FunctionDeployResult> => {
    await saveFunctionFailed(app.id, file.name, fileName, reason);
    return {
      name: file.name,
      state: "error",
      message,
      reason,
      ...(missingSecrets ? { missingSecrets } : {}),
      functionUrl: null,
      deployedAt: null,
    };
  };
  await markFunctionDeploying(app.id, file.name, fileName);
  const missing = secretsReadBy(file.content).filter((key) => !secretKeys.has(key));
  if (missing.length > 0) {
    return failed(
      fillTemplate(messages.functionMissingSecretsReason, { names: missing.join(", ") }),
      messages.functionMissingSecrets,
      describeSecrets(missing, await listSecretRequestBodies(app.id)),
    );
  }
  try {
    // The runtime's own build: what does not build here would not start there.
    await buildFunctionCode(fileName, file.content);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return failed(err.message);
  }
  const saved = await saveFunctionDeployed({
    appId: app.id,
    name: file.name,
    fileName,
    code: file.content,
    codeHash: codeHash(file.content),
    deployedBy: userId,
  });
  return {
    name: file.name,
    state: "success",
    message: messages.functionDeployed,
    functionUrl: app.status === "active" ? functionUrl(app.id, file.name) : null,
    deployedAt: saved.deployedAt?.toISOString() ?? null,
  };
}

async function secretKeysOf(appId: string): Promise<Set<string>> {
  return new Set((await listAppSecrets(appId)).map((s) => s.key));
}

/** POST .../functions/{name}/deploy: the result, or an error answer saying why it failed. */
export async function deployFunction(app: App, name: string, userId: string): Promise<FunctionDeployResult> {
  assertSpaceApp(app);
  const file = (await functionFiles(app.id)).get(name);
  if (!file) throw new AppError("NOT_FOUND", "functionNameUnknown", "function/unknown");
  const result = await deployFile(app, file, await secretKeysOf(app.id), userId);
  if (result.state === "success") return result;
  const extra = { state: result.state, reason: result.reason };
  if (result.missingSecrets) {
    throw new AppError("BAD_REQUEST", "functionMissingSecrets", "missing_secrets", {
      ...extra,
      missingSecrets: result.missingSecrets,
    });
  }
  throw new AppError("BAD_REQUEST", "functionDeployFailed", "function/deploy-failed", extra);
}

/** POST .../functions/deploy: every function file, one after another, with the summary. */
export async function deployAllFunctions(app: App, userId: string): Promise<FunctionsDeployAnswer> {
  assertSpaceApp(app);
  const files = [...(await functionFiles(app.id)).values()];
  const keys = await secretKeysOf(app.id);
  const results: FunctionDeployResult[] = [];
  for (const file of files) results.push(await deployFile(app, file, keys, userId));
  const deployed = results.filter((r) => r.state === "success").length;
  const total = results.length;
  const message =
    deployed === total
      ? fillTemplate(messages.functionsRedeployed, { n: deployed })
      : deployed === 0
        ? messages.functionsDeployFailed
        : fillTemplate(messages.functionsDeployedPartly, { n: deployed, m: total });
  return { message, total, deployed, results };
}

/** GET .../functions: the current version's function files joined with their last deploy. */
export async function listFunctions(app: App): Promise<FunctionListAnswer> {
  assertSpaceApp(app);
  const files = await functionFiles(app.id);
  const rows = new Map<string, AppFunction>((await listAppFunctions(app.id)).map((r) => [r.name, r]));
  const published = app.status === "active";
  return {
    published,
    urlMessage: published ? null : messages.functionUnpublished,
    functions: [...files.values()]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((file) => {
        const row = rows.get(file.name);
        const live = row?.code != null;
        return {
          name: file.name,
          path: file.path,
          state: row?.state ?? "pending",
          error: row?.error ?? null,
          deployedAt: row?.deployedAt?.toISOString() ?? null,
          changedSinceDeploy: !live || row?.codeHash !== codeHash(file.content),
          url: published && live ? functionUrl(app.id, file.name) : null,
        };
      }),
  };
}

/** The code every instance runs for a public call: the last successful deploy, if any. */
export async function deployedCode(
  appId: string,
  name: string,
): Promise<{ fileName: string; code: string } | null> {
  const row = await findAppFunction(appId, name);
  return row?.code != null ? { fileName: row.fileName, code: row.code } : null;
}
