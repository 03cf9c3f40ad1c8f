import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { SpaceChatPage } from "./pages/space-chat-page";
import { createApp, createBuilder } from "./support/db";
import { seedVersion } from "./support/space";
import { logInAsBuilder } from "./support/ui";

// The admin validates a broken version, repairs it with the local model server (its demo model
// fixes a misspelt name), applies the repair as an autofix, and the preview's issue is gone.

const tag = () => crypto.randomUUID().slice(0, 6);

/** A page that misspells its own variable: ESLint's no-undef, and a ReferenceError as it renders. */
const BROKEN = {
  "pages/Home.jsx": `export default function Home() {
  const total = 3;
  return (
    <main className="p-6">
      <h1 className="text-2xl font-bold">Orders</h1>
      <p>{totl} orders</p>
    </main>
  );
}
`,
};

test("an admin validates a broken version, repairs it, applies the repair: the preview's issue is gone", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const admin = await createBuilder({ plan: "explorer", isAdmin: true });
  const { appId } = await createApp(admin, { type: "space", header: `Repair ${tag()}` });
  await seedVersion(appId, admin.accountId!, BROKEN, { current: true });
  await logInAsBuilder(page, admin);

  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  const issuesPanel = page.getByRole("region", { name: messages.issuesTitle });
  await expect(issuesPanel).toContainText("totl is not defined", { timeout: 30_000 });

  const tester = page.getByRole("region", { name: messages.validateResultsTitle });
  await tester.getByRole("button", { name: messages.validateButton, exact: true }).click();
  await expect(tester.getByRole("button", { name: messages.revalidateButton })).toBeEnabled({
    timeout: 60_000,
  });
  // The lint's undefined name and the preview's runtime error, both in pages/Home.jsx.
  await expect(tester).toContainText(fillTemplate(messages.validateIssueCount, { n: 2 }));

  // The iterations choice is remembered in this browser.
  await tester.getByLabel(messages.repairIterations).selectOption("3");
  expect(await page.evaluate(() => localStorage.getItem("space-repair-iterations"))).toBe("3");

  await tester.getByRole("button", { name: messages.repairButton }).click();
  const result = tester.getByRole("region", { name: messages.repairResultsTitle });
  await expect(result).toContainText(fillTemplate(messages.repairIssuesBefore, { n: 2 }), {
    timeout: 60_000,
  });
  await expect(result).toContainText(fillTemplate(messages.repairIssuesAfter, { n: 0 }));
  await expect(result).toContainText("pages/Home.jsx");
  await expect(tester.getByRole("button", { name: messages.rerepairButton })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("repair-result.png") });

  // The repair's result compared with the current files before anything is applied: the fix shows
  // as the changed words of the changed line.
  await result.getByRole("button", { name: messages.repairViewChanges }).click();
  const changes = page.getByRole("dialog", { name: messages.compareRepairTitle });
  await expect(changes.getByRole("treeitem").filter({ hasText: "Home.jsx" })).toBeVisible();
  await expect(changes.locator('tr[data-line="added"] [data-word-change]').first()).toBeVisible();
  await expect(
    changes.getByRole("checkbox", {
      name: fillTemplate(messages.mergeSelectFile, { path: "pages/Home.jsx" }),
    }),
  ).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(changes).toBeHidden();

  await result.getByRole("button", { name: messages.repairApply, exact: true }).click();
  await expect(result.getByRole("button", { name: messages.repairApplied })).toBeDisabled({
    timeout: 30_000,
  });
  // The chat's autofix notice, and the preview of the repaired version without the issue.
  await expect(
    page.getByText(fillTemplate(messages.repairAutofixContent, { n: 1, paths: "pages/Home.jsx" })),
  ).toBeVisible({
    timeout: 30_000,
  });
  await expect(chat.preview.getByText("3 orders")).toBeVisible({ timeout: 30_000 });
  await expect(issuesPanel).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath("repair-applied.png") });
});
