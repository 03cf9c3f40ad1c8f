import { closeDb } from "@/db/client";
import type { FileChange } from "@/lib/space/schemas";
import { createBuilder, STRONG_PASSWORD } from "../tests/support/factories";
import { createSpaceApp, say } from "../tests/support/space";
import { CHANGES_FILES, fileContent, filePath } from "./space-changes-files";

// Seeds the app of the all-changes dialog's benchmark (bench/space-changes.ts) through the chat's
// own services, as an answer writes it: version 1 adds the files, version 2 (the answer whose
// "View changes" is measured) changes every one of them. Run as a child process under
// --conditions=react-server (lib/space is server-only) on DATABASE_URL; prints the seeded ids as
// JSON on its last line.

async function main() {
  const builder = await createBuilder({ plan: "explorer" });
  const accountId = builder.account.accountId;
  const app = await createSpaceApp(accountId, "Bench changes");
  const write = (edited: boolean): FileChange[] =>
    Array.from({ length: CHANGES_FILES }, (_, i) => ({
      type: edited ? "edit_file" : "add_file",
      path: filePath(i),
      content: fileContent(i, edited),
    }));
  const first = await say(app, accountId, { user: "Build the app", answer: "Built.", changes: write(false) });
  const second = await say(app, accountId, {
    user: "Restyle every page, component and service",
    answer: "Restyled.",
    changes: write(true),
  });
  await closeDb();
  console.log(
    JSON.stringify({
      email: builder.user.email,
      password: STRONG_PASSWORD,
      appId: app.id,
      firstVersionId: first.versionId,
      versionId: second.versionId,
      answerId: second.answerId,
    }),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
