import "server-only";
import { reserveFunctionCallAndRead } from "@/db/queries/app-functions";
import { FUNCTION_WARM_MAX } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { openSecrets } from "@/lib/secrets/secrets";
import { functionCallSlot } from "@/lib/security/rate-limit";
import { callFunction, type FunctionRequest } from "./runtime";

// What this server last read of each function's deployed code and each app's secrets (opened),
// with the version it was read at. Every call still asks the database, in the statement that
// takes its point, whether that version is current (the code's SHA-256, a digest of the sealed
// secrets): a redeploy, a changed or deleted secret, an unpublish made on any instance is seen by
// the next call here. Only what changed comes back. As many entries as warm processes: the same
// working set (least recently used out).
type CodeCopy = { codeHash: string; code: string };
type SecretsCopy = { version: string; values: Readonly<Record<string, string>> };
const codeCopies = new Map<string, CodeCopy>();
const secretsCopies = new Map<string, SecretsCopy>();

function recall<T>(copies: Map<string, T>, key: string): T | undefined {
  const found = copies.get(key);
  if (found !== undefined) {
    copies.delete(key);
    copies.set(key, found); // most recently used last
  }
  return found;
}

function keep<T>(copies: Map<string, T>, key: string, value: T): void {
  copies.delete(key);
  copies.set(key, value);
  for (const oldest of copies.keys()) {
    if (copies.size <= FUNCTION_WARM_MAX) break;
    copies.delete(oldest);
  }
}

/**
 * A call of a space app's function by its public URL (webhooks): anybody may call it, so the
 * address's point is taken first, before anything is read or run (the same statement reads the
 * rest only once it is granted). Only a published app's deployed functions answer; the function
 * gets its own app's secrets and answers the caller itself.
 */
export async function callPublicFunction(
  appId: string,
  name: string,
  ip: string,
  request: FunctionRequest,
): Promise<Response> {
  const codeKey = `${appId}\0${name}`;
  // The copies as they are now: a call answered meanwhile may replace them, this call uses the
  // versions it asked about.
  const codeCopy = recall(codeCopies, codeKey);
  const secretsCopy = recall(secretsCopies, appId);
  const read = await reserveFunctionCallAndRead(functionCallSlot(appId, ip), appId, name, {
    codeHash: codeCopy?.codeHash ?? "",
    secretsVersion: secretsCopy?.version ?? "",
  });
  if (!read.allowed) throw new AppError("RATE_LIMITED", "functionRateLimited");
  if (read.app?.type !== "space")
    throw new AppError("NOT_FOUND", "functionNotDeployed", "function/not-found");
  if (read.app.status !== "active")
    throw new AppError("FORBIDDEN", "functionUnpublished", "function/unpublished");
  const { deployed, secrets } = read;
  if (!deployed || !secrets) throw new AppError("NOT_FOUND", "functionNotDeployed", "function/not-deployed");

  let code = deployed.code;
  if (code === null) {
    // The database left it out: its hash is the one of our copy.
    if (!codeCopy) throw new Error("the deployed code was left out without a copy of it here");
    code = codeCopy.code;
  } else if (deployed.codeHash) {
    keep(codeCopies, codeKey, { codeHash: deployed.codeHash, code });
  }
  let values: Readonly<Record<string, string>>;
  if (secrets.sealed === null) {
    if (!secretsCopy) throw new Error("the secrets were left out without a copy of them here");
    values = secretsCopy.values;
  } else {
    values = Object.freeze(openSecrets(appId, secrets.sealed));
    keep(secretsCopies, appId, { version: secrets.version, values });
  }

  const answer = await callFunction({ appId, name: deployed.fileName, code, secrets: values, request });
  return new Response(answer.body.byteLength > 0 ? answer.body : null, {
    status: answer.status,
    headers: answer.headers,
  });
}
