import "server-only";
import type { App } from "@/db/schema";
import { messages } from "@/lib/messages";
import { mergeFiles } from "@/lib/space/merge";
import type { MergeBody } from "@/lib/space/schemas";
import type { ChatMessageView } from "@/lib/space/views";
import { fillTemplate } from "@/lib/text";
import { deployFunctionsAt } from "./deploy";
import type { MergeAnswer } from "./schemas";

/** The answer as the server builds it (its messages checked against ChatMessageAnswer on the way out). */
export type MergeResult = Omit<MergeAnswer, "messages"> & { messages: ChatMessageView[] };

/**
 * POST /api/apps/{appId}/merge: the chosen files become one new version, then the functions among
 * them are deployed, so a merged function answers with its merged code. A function that fails to
 * deploy does not undo the merge: the answer names it.
 */
export async function mergeAndDeploy(
  app: App,
  body: MergeBody,
  user: { accountId: string; userId: string },
): Promise<MergeResult> {
  const { version, paths, message } = await mergeFiles(app, body, user.accountId);
  const results = await deployFunctionsAt(app, paths, user.userId);
  const issues = results.filter((r) => r.state !== "success");
  return {
    message: fillTemplate(messages.mergeDone, { n: paths.length, version: version.number }),
    messages: [message],
    versionId: version.id,
    versionNumber: version.number,
    filesCount: paths.length,
    totalFunctions: results.length,
    deployedFunctionsCount: results.length - issues.length,
    deploymentIssues: issues,
    deploymentMessage:
      issues.length > 0 ? fillTemplate(messages.mergeFunctionsFailed, { n: issues.length }) : null,
  };
}
