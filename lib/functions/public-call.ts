import "server-only";
import { findAppById } from "@/db/queries/apps";
import { AppError } from "@/lib/errors";
import { readSecretValues } from "@/lib/secrets/secrets";
import { reserveFunctionCall } from "@/lib/security/rate-limit";
import { deployedCode } from "./deploy";
import { callFunction, type FunctionRequest } from "./runtime";

/**
 * A call of a space app's function by its public URL (webhooks): anybody may call it, so the
 * address's point is taken first, before anything is read or run. Only a published app's deployed
 * functions answer; the function gets the app's secrets and answers the caller itself.
 */
export async function callPublicFunction(
  appId: string,
  name: string,
  ip: string,
  request: FunctionRequest,
): Promise<Response> {
  await reserveFunctionCall(appId, ip);
  // Three reads at once, not one after another: a warm call's time is mostly these round trips.
  // The secrets go to the function only once the app and its deploy are known to answer.
  const [app, deployed, secrets] = await Promise.all([
    findAppById(appId),
    deployedCode(appId, name),
    readSecretValues(appId),
  ]);
  if (app?.type !== "space") throw new AppError("NOT_FOUND", "functionNotDeployed", "function/not-found");
  if (app.status !== "active") throw new AppError("FORBIDDEN", "functionUnpublished", "function/unpublished");
  if (!deployed) throw new AppError("NOT_FOUND", "functionNotDeployed", "function/not-deployed");
  const answer = await callFunction({
    appId,
    name: deployed.fileName,
    code: deployed.code,
    secrets,
    request,
  });
  return new Response(answer.body.byteLength > 0 ? Buffer.from(answer.body) : null, {
    status: answer.status,
    headers: answer.headers,
  });
}
