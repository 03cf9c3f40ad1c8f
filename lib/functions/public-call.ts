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
  const app = await findAppById(appId);
  if (app?.type !== "space") throw new AppError("NOT_FOUND", "functionNotDeployed", "function/not-found");
  if (app.status !== "active") throw new AppError("FORBIDDEN", "functionUnpublished", "function/unpublished");
  const deployed = await deployedCode(appId, name);
  if (!deployed) throw new AppError("NOT_FOUND", "functionNotDeployed", "function/not-deployed");
  const answer = await callFunction({
    appId,
    name: deployed.fileName,
    code: deployed.code,
    secrets: await readSecretValues(appId),
    request,
  });
  return new Response(answer.body.byteLength > 0 ? Buffer.from(answer.body) : null, {
    status: answer.status,
    headers: answer.headers,
  });
}
