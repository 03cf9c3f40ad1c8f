import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { SpaceChatPage } from "./pages/space-chat-page";
import { expectNoA11yViolationsInBothThemes } from "./support/axe";
import { createApp, createBuilder } from "./support/db";
import { seedVersion } from "./support/space";
import { logInAsBuilder } from "./support/ui";

// The admin validates a broken version, repairs it with the local model server (its demo model
// fixes a misspelt name), applies the repair as an autofix, and the preview's issue is gone.

const tag = () => crypto.randomUUID().slice(0, 6);
/** The validate tester beside the preview, for axe. */
const SPACE_TESTER = `section[aria-label="${messages.validateResultsTitle}"]`;

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

test("compare mode: the default and a custom model repair side by side; either side's failure is named, the other applies", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const admin = await createBuilder({ plan: "explorer", isAdmin: true });
  const { appId } = await createApp(admin, { type: "space", header: `Repair compare ${tag()}` });
  await seedVersion(appId, admin.accountId!, BROKEN, { current: true });
  await logInAsBuilder(page, admin);

  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  const tester = page.getByRole("region", { name: messages.validateResultsTitle });
  await tester.getByRole("button", { name: messages.validateButton, exact: true }).click();
  await expect(tester.getByRole("button", { name: messages.revalidateButton })).toBeEnabled({
    timeout: 60_000,
  });

  // The custom model is chosen from the provider's list (the local server's), the default left out.
  await tester.getByLabel(messages.repairCompareModels).check();
  const custom = tester.getByLabel(messages.repairCustomModel, { exact: true });
  await expect(custom).toBeEnabled();
  await expect(custom.locator("option")).toHaveText(["GPT-4o", "Local echo"]);
  await custom.selectOption("gpt-4o");
  expect(await page.evaluate(() => localStorage.getItem("space-repair-custom-model"))).toBe("gpt-4o");

  // Both repairs run at once; each result names its model.
  const repairs: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/repair")) repairs.push(r.postDataJSON()?.customModel ?? "default");
  });
  await tester.getByRole("button", { name: messages.repairButton }).click();
  const defaultSide = tester.getByRole("region", {
    name: fillTemplate(messages.repairResultsOf, {
      side: fillTemplate(messages.repairDefaultSide, { model: "gpt-4o-mini" }),
    }),
  });
  const customSide = tester.getByRole("region", {
    name: fillTemplate(messages.repairResultsOf, {
      side: fillTemplate(messages.repairCustomSide, { model: "gpt-4o" }),
    }),
  });
  for (const [side, model] of [
    [defaultSide, "gpt-4o-mini"],
    [customSide, "gpt-4o"],
  ] as const) {
    await expect(side).toContainText(fillTemplate(messages.repairIssuesAfter, { n: 0 }), { timeout: 60_000 });
    await expect(side).toContainText(`(${model}, `);
  }
  expect(repairs.sort()).toEqual(["default", "gpt-4o"]);
  // Side by side at 1280 px: the custom model's result to the right of the default one's.
  const [left, right] = [await defaultSide.boundingBox(), await customSide.boundingBox()];
  expect(right!.x).toBeGreaterThan(left!.x + left!.width - 1);
  expect(Math.abs(right!.y - left!.y)).toBeLessThan(2);
  await page.screenshot({ path: test.info().outputPath("repair-compare.png") });
  await expectNoA11yViolationsInBothThemes(page, "repair compare mode", SPACE_TESTER);

  // The custom model's call fails (its connection drops): that side says so in the spec's words,
  // the default model's result stands and is applied.
  await page.route("**/repair", (route) =>
    route.request().postDataJSON()?.customModel ? route.abort() : route.continue(),
  );
  await tester.getByRole("button", { name: messages.rerepairButton }).click();
  await expect(customSide.getByRole("alert")).toHaveText(
    fillTemplate(messages.validateAlert, { message: messages.repairFailedCustom }),
    { timeout: 60_000 },
  );
  await expect(tester.getByRole("button", { name: messages.rerepairButton })).toBeEnabled({
    timeout: 60_000,
  });
  await expect(defaultSide).toContainText(fillTemplate(messages.repairIssuesAfter, { n: 0 }));
  await defaultSide.getByRole("button", { name: messages.repairApply, exact: true }).click();
  await expect(
    page.getByText(fillTemplate(messages.repairAutofixContent, { n: 1, paths: "pages/Home.jsx" })),
  ).toBeVisible({ timeout: 30_000 });
  await expect(chat.preview.getByText("3 orders")).toBeVisible({ timeout: 30_000 });
});
