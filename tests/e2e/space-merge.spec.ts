import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { SpaceChatPage } from "./pages/space-chat-page";
import { expectNoA11yViolationsInBothThemes } from "./support/axe";
import { createApp, createBuilder } from "./support/db";
import { logInAsBuilder } from "./support/ui";

// Merging only the files you choose: an older version compared with the current files shows what
// differs (with the changed words marked), and 2 of its 3 changed files are merged as one version,
// announced in the chat; the third keeps its current content.

const tag = () => crypto.randomUUID().slice(0, 6).replaceAll("-", "");
const page = (name: string, text: string) =>
  `export default function ${name}() {\n  return <main><h1>${text}</h1></main>;\n}\n`;

test("compare an older version with the current files and merge 2 of its 3 changed files", async ({
  page: browser,
}) => {
  test.setTimeout(180_000);
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { type: "space", header: `Merge ${tag()}` });
  await logInAsBuilder(browser, builder);

  // Two versions through the merge route itself: the first writes three pages, the second changes them.
  const write = async (texts: [string, string, string]) => {
    const res = await browser.request.post(`/api/apps/${appId}/merge`, {
      data: {
        files: [
          { path: "pages/Home.jsx", content: page("Home", texts[0]) },
          { path: "pages/About.jsx", content: page("About", texts[1]) },
          { path: "pages/Contact.jsx", content: page("Contact", texts[2]) },
        ],
      },
    });
    expect(res.status()).toBe(200);
    return (await res.json()) as { versionNumber: number };
  };
  expect((await write(["First home", "First about", "First contact"])).versionNumber).toBe(1);
  expect((await write(["Second home", "Second about", "Second contact"])).versionNumber).toBe(2);

  const chat = new SpaceChatPage(browser, appId);
  await chat.goto();
  await chat.expectPreviewHeading("Second home");
  await browser.getByTestId("versions-button").click();
  const versions = browser.getByRole("dialog", { name: messages.versionsTitle });
  await versions
    .locator('[data-version-number="1"]')
    .getByRole("button", { name: messages.compareWithCurrent })
    .click();

  const compare = browser.getByRole("dialog", { name: fillTemplate(messages.compareTitle, { n: 1 }) });
  await expect(compare.getByRole("treeitem").filter({ hasText: ".jsx" })).toHaveCount(3);
  await expect(compare.locator('tr[data-line="added"]')).toContainText("First");
  await expect(compare.locator('tr[data-line="added"] [data-word-change]').first()).toContainText("First");
  const merge = compare.getByRole("button", { name: /Merge selected/ });
  await expect(merge).toBeDisabled();
  await compare
    .getByRole("checkbox", { name: fillTemplate(messages.mergeSelectFile, { path: "pages/Home.jsx" }) })
    .check();
  await compare
    .getByRole("checkbox", { name: fillTemplate(messages.mergeSelectFile, { path: "pages/About.jsx" }) })
    .check();
  await expect(merge).toHaveText(fillTemplate(messages.mergeSelected, { n: 2 }));
  await browser.screenshot({ path: ".data/screens/space-compare-merge.png" });
  await expectNoA11yViolationsInBothThemes(browser, "compare dialog", '[role="dialog"]');
  await merge.click();

  await expect(browser.getByText(fillTemplate(messages.mergeDone, { n: 2, version: 3 }))).toBeVisible();
  await expect(compare).toBeHidden();
  // The chat holds the merge notice; the preview shows the merged home page.
  const notice = browser.locator('article[data-kind="merge"]').last();
  await expect(notice).toContainText(
    fillTemplate(messages.mergeMessageContent, { n: 2, paths: "pages/About.jsx, pages/Home.jsx" }),
  );
  await chat.expectPreviewHeading("First home");
  const files = await browser.request.get(`/api/apps/${appId}/versions?limit=1`);
  const current = (await files.json()) as { current: { id: string; number: number } };
  expect(current.current.number).toBe(3);
  const detail = await browser.request.get(`/api/apps/${appId}/versions/${current.current.id}`);
  const byPath = Object.fromEntries(
    ((await detail.json()) as { files: { path: string; content: string }[] }).files.map((f) => [
      f.path,
      f.content,
    ]),
  );
  expect(byPath["pages/Home.jsx"]).toContain("First home");
  expect(byPath["pages/About.jsx"]).toContain("First about");
  expect(byPath["pages/Contact.jsx"]).toContain("Second contact");

  // Only Contact differs from version 1 now; merging Home again changes nothing: the spec's words.
  await browser.getByTestId("versions-button").click();
  await versions
    .locator('[data-version-number="1"]')
    .getByRole("button", { name: messages.compareWithCurrent })
    .click();
  const again = browser.getByRole("dialog", { name: fillTemplate(messages.compareTitle, { n: 1 }) });
  await expect(again.getByRole("treeitem").filter({ hasText: ".jsx" })).toHaveCount(1);
  const refused = await browser.request.post(`/api/apps/${appId}/merge`, {
    data: { files: [{ path: "pages/Home.jsx", content: page("Home", "First home") }] },
  });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).error.message).toBe(messages.mergeNoChanges);
});
