import { z } from "zod";
import { FUNCTION_NAME_PATTERN } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { ChatMessageAnswer } from "@/lib/space/schemas";

// The functions routes' inputs and answers (/api/apps/{appId}/functions...), shared by the
// routes and the tests. No server imports.

/** A function's name in a path: anything else is 'Could not determine function name' (400). */
export const FunctionName = z.string().max(64, messages.functionNameUnknown).regex(FUNCTION_NAME_PATTERN, {
  message: messages.functionNameUnknown,
});

export const FunctionParams = z.object({ appId: z.uuid(), name: FunctionName });

export const FunctionState = z.enum(["pending", "deploying", "success", "error"]);

/** One function's deploy: its state, the answer's message and, on failure, why. */
export const FunctionDeployResult = z.object({
  name: z.string(),
  state: FunctionState,
  message: z.string(),
  /** Why it failed (a build error, the missing secrets), on failure. */
  reason: z.string().optional(),
  /** The secrets the code reads that the app lacks, with what the chat said each one is. */
  missingSecrets: z.array(z.object({ secretName: z.string(), description: z.string() })).optional(),
  /** The public URL, when it deployed and the app is published. */
  functionUrl: z.string().nullable(),
  deployedAt: z.string().nullable(),
});
export type FunctionDeployResult = z.infer<typeof FunctionDeployResult>;

/** POST .../functions/{name}/deploy (a success: failures are error answers). */
export const FunctionDeployAnswer = FunctionDeployResult;

/** POST .../functions/deploy: the summary and every function's result. */
export const FunctionsDeployAnswer = z.object({
  message: z.string(),
  total: z.number().int(),
  deployed: z.number().int(),
  results: z.array(FunctionDeployResult),
});
export type FunctionsDeployAnswer = z.infer<typeof FunctionsDeployAnswer>;

/** POST /api/apps/{appId}/merge: what was merged, and the deploys of the functions among it. */
export const MergeAnswer = z.object({
  message: z.string(),
  /** The chat's merge notice, annotated with the new version (the chat shows it at once). */
  messages: z.array(ChatMessageAnswer),
  versionId: z.string(),
  versionNumber: z.number().int(),
  filesCount: z.number().int(),
  totalFunctions: z.number().int(),
  deployedFunctionsCount: z.number().int(),
  /** The functions that did not deploy, with why ('{n} function(s) failed to deploy' says how many). */
  deploymentIssues: z.array(FunctionDeployResult),
  /** '{n} function(s) failed to deploy', when some did. */
  deploymentMessage: z.string().nullable(),
});
export type MergeAnswer = z.infer<typeof MergeAnswer>;

export const FunctionListItem = z.object({
  name: z.string(),
  path: z.string(),
  state: FunctionState,
  error: z.string().nullable(),
  deployedAt: z.string().nullable(),
  /** Whether the file changed since its last successful deploy. */
  changedSinceDeploy: z.boolean(),
  /** The public URL: only for a deployed function of a published app. */
  url: z.string().nullable(),
});

/** GET .../functions: the version's function files with their deploy state. */
export const FunctionListAnswer = z.object({
  published: z.boolean(),
  /** Why there are no URLs ('App must be published…'), when the app is not published. */
  urlMessage: z.string().nullable(),
  functions: z.array(FunctionListItem),
});
export type FunctionListAnswer = z.infer<typeof FunctionListAnswer>;
