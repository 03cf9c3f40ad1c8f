import "server-only";
import type { App } from "@/db/schema";
import { messages } from "@/lib/messages";
import { mergeFiles } from "@/lib/space/merge";
import type { MergeBody } from "@/lib/space/schemas";
import { fillTemplate } from "@/lib/text";
import { deployFunctionsAt } from "./deploy";
import type { MergeAnswer } from "./schemas";

/**
 * POST /api/apps/{appId}/merge: the chosen files become one new version, then the functions among
 * them are deployed, so a merged function answers with its merged code. A function that fails to
 * deploy does not undo the merge: the answer names it.
 */
export async function mergeAndDeploy(
  app: App,
  body: MergeBody,
  user: { accountId: string; userId: string },
): Promise<MergeAnswer> {
  const { version, paths } = await mergeFiles(app, body, user.accountId);
  const results = await deployFunctionsAt(app, paths, user.userId);
  const issues = results.filter((r) => r.state !== "success");
  return {
    message: fillTemplate(messages.mergeDone, { n: paths.length, version: version.number }),
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
