import "server-only";
import { insertChatMessage, updateChatMessage } from "@/db/queries/space-chat";
import type { App, Version } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { assertChatIdle, assertSpaceApp, currentHead, currentTree, withSpaceLock } from "./commit";
import { entityNameOf, hashContent } from "./files";
import type { FileChange, MergeBody } from "./schemas";
import { applyFileChanges } from "./versions";
import { type ChatMessageView, chatMessageView } from "./views";

// Merging chosen files into a space app's current ones (from a version compared with the current
// files, or a repair's result): the files sent that are new or differ become one new version, of
// kind "merge", announced in the chat by a merge notice (as a restore is), so the conversation
// and its versions stay one story. Deletions are not merged: a file left out stays as it is.
// A repair's result applied (`autofix`) is the same merge, announced by an autofix notice.

export type MergedFiles = { version: Version; paths: string[]; message: ChatMessageView };

/** How many merged paths the chat's notice names before "…". */
const NOTICE_PATHS = 5;

/** Applies the added and modified files among `body.files` as one version; the paths it changed. */
export async function mergeFiles(app: App, body: MergeBody, accountId: string): Promise<MergedFiles> {
  assertSpaceApp(app);
  const files = body.files.flatMap((f) => (f.content === null ? [] : [{ path: f.path, content: f.content }]));
  const description = body.description?.trim() || undefined;
  if (files.length === 0) throw new AppError("BAD_REQUEST", "mergeNoFiles", "MERGE_NO_FILES");
  return withSpaceLock(app.id, async (tx) => {
    // An answer being written applies its changes on the state it started from: merge after it.
    await assertChatIdle(tx, app.id);
    const tree = await currentTree(app.id, tx);
    const changed = files.filter((f) => tree.get(f.path) !== hashContent(f.content));
    if (changed.length === 0) throw new AppError("BAD_REQUEST", "mergeNoChanges", "MERGE_NO_CHANGES");
    const changes: FileChange[] = changed.map((f) => {
      // An entity's schema goes through the entity change, which checks it is a JSON object.
      const entity = entityNameOf(f.path);
      return entity
        ? { type: "edit_entity", name: entity, content: f.content }
        : { type: "add_file", path: f.path, content: f.content };
    });
    const paths = changed.map((f) => f.path);
    const named = paths.slice(0, NOTICE_PATHS).join(", ") + (paths.length > NOTICE_PATHS ? ", …" : "");
    const notice = await insertChatMessage(
      {
        appId: app.id,
        role: "assistant",
        kind: body.autofix ? "autofix" : "merge",
        status: "complete",
        content:
          description ??
          fillTemplate(body.autofix ? messages.repairAutofixContent : messages.mergeMessageContent, {
            n: paths.length,
            paths: named,
          }),
        ...(body.autofix ? { systemAction: { type: "autofix" } } : {}),
        baseVersionId: (await currentHead(app.id, tx)).versionId,
        authorAccountId: accountId,
      },
      tx,
    );
    const version = await applyFileChanges(
      app.id,
      changes,
      { kind: "merge", messageId: notice.id, accountId, description },
      tx,
    );
    if (!version) throw new AppError("BAD_REQUEST", "mergeNoChanges", "MERGE_NO_CHANGES");
    const annotated = (await updateChatMessage(app.id, notice.id, { versionId: version.id }, tx))!;
    return { version, paths, message: chatMessageView(annotated, null, version.number) };
  });
}
