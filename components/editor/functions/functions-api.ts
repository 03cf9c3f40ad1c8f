"use client";

import { ApiError, apiFetch } from "@/components/auth/api-client";
import type {
  FunctionDeployResult,
  FunctionListAnswer,
  FunctionsDeployAnswer,
} from "@/lib/functions/schemas";
import { messages } from "@/lib/messages";
import type { SecretRequirement } from "@/lib/secrets/requests";

// The calls of the Functions panel (/api/apps/{appId}/functions...). A deploy's failure is an
// error answer on the one-function route: it is read back into the same result shape as a
// deploy-all's rows, so the panel shows both the same way.

export type { FunctionDeployResult, FunctionListAnswer, FunctionsDeployAnswer };

const base = (appId: string) => `/api/apps/${encodeURIComponent(appId)}/functions`;

export const loadFunctions = (appId: string) => apiFetch<FunctionListAnswer>(base(appId));

export const deployAll = (appId: string) =>
  apiFetch<FunctionsDeployAnswer>(`${base(appId)}/deploy`, { method: "POST" });

const isRequirement = (v: unknown): v is SecretRequirement =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as SecretRequirement).secretName === "string" &&
  typeof (v as SecretRequirement).description === "string";

/**
 * Deploys one function. Its refusals (missing secrets, a build error) come back as a result
 * with state error; only a failure to reach the server at all is thrown.
 */
export async function deployOne(appId: string, name: string): Promise<FunctionDeployResult> {
  try {
    return await apiFetch<FunctionDeployResult>(`${base(appId)}/${encodeURIComponent(name)}/deploy`, {
      method: "POST",
    });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status >= 500 || err.status === 0) throw err;
    const missing = Array.isArray(err.extra.missingSecrets)
      ? err.extra.missingSecrets.filter(isRequirement)
      : [];
    return {
      name,
      state: "error",
      message: err.code === "missing_secrets" ? messages.functionMissingSecrets : err.message,
      reason: typeof err.extra.reason === "string" ? err.extra.reason : undefined,
      ...(missing.length > 0 ? { missingSecrets: missing } : {}),
      functionUrl: null,
      deployedAt: null,
    };
  }
}
