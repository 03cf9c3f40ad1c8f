import crypto from "node:crypto";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { SpaceChatPage } from "./pages/space-chat-page";
import { expectNoA11yViolationsInBothThemes, SPACE_PREVIEW_FRAME } from "./support/axe";
import { createApp, createBuilder, sql } from "./support/db";
import { seedVersion } from "./support/space";
import { logInAsBuilder, toast } from "./support/ui";

// The Code panel of a space app: the files by kind with a search and line badges, CodeMirror with
// auto-save; an admin's edit saved, then a conflict with a change the chat made meanwhile (in
// another tab) showing both texts and losing neither; the owner (not an admin) reads only;
// a delete that updates the file importing the deleted one; keyboard, axe in light and dark, 375 px.

const tag = () => crypto.randomUUID().slice(0, 6);

const HOME = "export default function Home() {\n  return <main><h1>Hello</h1></main>;\n}\n";
const BANNER = "export default function Banner() {\n  return <p>Sale</p>;\n}\n";
const ABOUT = `import Banner from "../components/Banner";\nexport default function About() {\n  return <main><Banner /></main>;\n}\n`;
const FILES: Record<string, string> = {
  "pages/Home.jsx": HOME,
  "pages/About.jsx": ABOUT,
  "components/Banner.jsx": BANNER,
  "services/big.js": Array.from({ length: 600 }, (_, i) => `export const v${i} = ${i};`).join("\n"),
  "entities/Task.json": '{\n  "type": "object",\n  "properties": { "title": { "type": "string" } }\n}\n',
  "layout.jsx": "export default function Layout({ children }) {\n  return <div>{children}</div>;\n}\n",
  "globals.css": "body {\n  margin: 0;\n}\n",
};

async function spaceApp() {
  const owner = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(owner, { type: "space", header: `Code ${tag()}` });
  await seedVersion(appId, owner.accountId!, FILES, { current: true });
  return { owner, appId };
}

async function currentContent(appId: string, path: string): Promise<string | undefined> {
  const [row] = await sql<{ content: string }>(
    `SELECT b.content FROM app_files f JOIN space_blobs b ON b.app_id = f.app_id AND b.hash = f.blob_hash
     WHERE f.app_id = $1 AND f.path = $2`,
    [appId, path],
  );
  return row?.content;
}

async function openCode(page: Page, appId: string) {
  await new SpaceChatPage(page, appId).goto();
  await page
    .getByRole("navigation", { name: messages.editorPanels })
    .getByRole("button", { name: messages.editorMenuCode })
    .click();
  await expect(page.getByRole("heading", { level: 2, name: messages.codeTitle })).toBeVisible({
    timeout: 20_000,
  });
}

const tree = (page: Page) => page.getByRole("tree", { name: messages.codeTreeLabel });
const fileItem = (page: Page, name: string) =>
  tree(page).getByRole("treeitem", { name: new RegExp(`^${name}`) });
const editorOf = (page: Page, path: string): Locator =>
  page.getByRole("textbox", { name: fillTemplate(messages.codeEditorLabel, { path }) });
const status = (page: Page) => page.getByTestId("code-save-status");

/** Types at the end of the file in the editor. */
async function typeAtEnd(page: Page, editor: Locator, text: string) {
  await editor.click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.type(text);
}

test("an admin's edit is saved; a change the chat made meanwhile shows both texts, and Keep mine loses nothing", async ({
  page,
  context,
}) => {
  const { appId } = await spaceApp();
  const admin = await createBuilder({ isAdmin: true, plan: "explorer" });
  await logInAsBuilder(page, admin);
  await openCode(page, appId);

  // The tree: groups by kind, the badge of the 600-line file, a search after its debounce.
  await expect(tree(page).getByRole("treeitem", { level: 1 })).toHaveText([
    /^Pages/,
    /^Components/,
    /^Services/,
    /^Entities/,
    /^Layout/,
    /^Globals CSS/,
  ]);
  await expect(fileItem(page, "big.js")).toContainText(fillTemplate(messages.codeLines, { n: 600 }));
  await expect(fileItem(page, "Home.jsx").getByTestId("line-badge")).toHaveCount(0);
  await page.getByRole("searchbox", { name: messages.codeSearchLabel }).fill("abou");
  await expect(tree(page).getByRole("treeitem", { level: 2 })).toHaveText([/^About\.jsx/]);
  await page.getByRole("searchbox", { name: messages.codeSearchLabel }).fill("");
  await expect(fileItem(page, "Home.jsx")).toBeVisible();

  // Keyboard: the tree is one tab stop; arrows move, Enter opens a file.
  await tree(page).getByRole("treeitem").first().focus();
  await page.keyboard.press("ArrowDown");
  await expect(fileItem(page, "About.jsx")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(fileItem(page, "Home.jsx")).toBeFocused();
  await page.keyboard.press("Enter");
  const editor = editorOf(page, "pages/Home.jsx");
  await expect(editor).toContainText("<h1>Hello</h1>");
  await expect(fileItem(page, "Home.jsx")).toHaveAttribute("aria-selected", "true");

  // The edit is saved a second after typing stops; "Saved" clears after 2 s.
  await typeAtEnd(page, editor, "// admin note");
  await expect(status(page)).toHaveText(messages.codeStatusSaved, { timeout: 10_000 });
  await expect.poll(() => currentContent(appId, "pages/Home.jsx")).toContain("// admin note");
  await expect(status(page)).toHaveText("", { timeout: 10_000 });
  const edits = await sql<{ kind: string; created_by_account_id: string }>(
    "SELECT kind, created_by_account_id FROM versions WHERE app_id = $1 AND kind = 'edit' ORDER BY number",
    [appId],
  );
  expect(edits).toHaveLength(2);
  expect(edits[1]!.created_by_account_id).toBe(admin.accountId);

  // Escape, then Tab, leaves the editor (Tab alone indents).
  await editor.click();
  await page.keyboard.press("Escape");
  await page.keyboard.press("Tab");
  await expect(editor).not.toBeFocused();

  // Meanwhile, in another tab, the chat changes the same file.
  const other = await context.newPage();
  const chat = new SpaceChatPage(other, appId);
  await chat.goto();
  const answer = await chat.newAnswer(() => chat.ask("Change the heading to From the chat"));
  await expect(answer).toHaveAttribute("data-status", "complete", { timeout: 30_000 });
  await expect.poll(() => currentContent(appId, "pages/Home.jsx")).toContain("From the chat");
  await other.close();

  // The next save loses to it: both texts are shown, the builder's kept in the editor.
  await typeAtEnd(page, editor, " and more");
  const bar = page.getByTestId("code-conflict");
  await expect(bar).toBeVisible({ timeout: 10_000 });
  await expect(bar).toContainText(messages.codeConflictTitle);
  await expect(page.getByRole("textbox", { name: messages.codeConflictTheirs })).toContainText(
    "From the chat",
  );
  await expect(editor).toContainText("// admin note and more");
  await expect(editor).toContainText("<h1>Hello</h1>");
  expect(await currentContent(appId, "pages/Home.jsx")).toContain("From the chat");
  await page.screenshot({ path: test.info().outputPath("code-conflict.png") });

  // Keep mine: saved over theirs; theirs stays in the history (the chat's version).
  await bar.getByRole("button", { name: messages.codeKeepMine }).click();
  await expect(bar).toBeHidden();
  await expect(status(page)).toHaveText(messages.codeStatusSaved, { timeout: 10_000 });
  const mine = await currentContent(appId, "pages/Home.jsx");
  expect(mine).toContain("// admin note and more");
  expect(mine).toContain("<h1>Hello</h1>");
  const [theirs] = await sql<{ content: string }>(
    `SELECT b.content FROM versions v JOIN version_files f ON f.version_id = v.id
     JOIN space_blobs b ON b.app_id = v.app_id AND b.hash = f.blob_hash
     WHERE v.app_id = $1 AND v.kind = 'chat' AND f.path = 'pages/Home.jsx'`,
    [appId],
  );
  expect(theirs!.content).toContain("From the chat");
});

test("the app's owner, not an admin, reads the code: typing changes nothing, nothing to delete", async ({
  page,
}) => {
  const { owner, appId } = await spaceApp();
  await logInAsBuilder(page, owner);
  await openCode(page, appId);
  await expect(page.getByText(messages.codeDescriptionReadOnly)).toBeVisible();
  await fileItem(page, "Home.jsx").click();
  const editor = editorOf(page, "pages/Home.jsx");
  await expect(editor).toHaveAttribute("aria-readonly", "true");
  await expect(page.getByTestId("code-read-only")).toHaveText(messages.codeReadOnlyRole);
  await typeAtEnd(page, editor, "typed by the owner");
  await expect(editor).not.toContainText("typed by the owner");
  await expect(page.getByRole("button", { name: new RegExp(messages.codeDelete) })).toHaveCount(0);
  await page.waitForTimeout(1500);
  expect(await currentContent(appId, "pages/Home.jsx")).toBe(HOME);
});

test("delete with confirm updates the file that imported it; entities are read-only; axe in light and dark; 375 px", async ({
  page,
}) => {
  const { appId } = await spaceApp();
  const admin = await createBuilder({ isAdmin: true, plan: "explorer" });
  await logInAsBuilder(page, admin);
  await openCode(page, appId);

  // An entity: read-only, no delete.
  await fileItem(page, "Task.json").click();
  await expect(page.getByTestId("code-read-only")).toHaveText(messages.codeReadOnlyFile);
  await expect(editorOf(page, "entities/Task.json")).toHaveAttribute("aria-readonly", "true");
  await expect(page.getByRole("button", { name: new RegExp(messages.codeDelete) })).toHaveCount(0);

  await fileItem(page, "Banner.jsx").click();
  await expect(editorOf(page, "components/Banner.jsx")).toContainText("Sale");
  await expectNoA11yViolationsInBothThemes(page, "Code panel", undefined, SPACE_PREVIEW_FRAME);
  await page.screenshot({ path: test.info().outputPath("code-light.png") });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: test.info().outputPath("code-dark.png") });
  await page.emulateMedia({ colorScheme: "light" });

  await page.getByRole("button", { name: `${messages.codeDelete}: Banner.jsx` }).click();
  const dialog = page.getByRole("alertdialog", {
    name: fillTemplate(messages.codeDeleteTitle, { name: "Banner.jsx" }),
  });
  await expect(dialog.getByTestId("delete-references")).toContainText("pages/About.jsx");
  await expect(dialog.getByRole("checkbox", { name: "pages/About.jsx" })).toBeChecked();
  await dialog.getByRole("button", { name: messages.codeDeleteConfirm }).click();
  await expect(toast(page, fillTemplate(messages.deletedName, { name: "Banner.jsx" }))).toBeVisible();
  await expect(fileItem(page, "Banner.jsx")).toHaveCount(0);
  expect(await currentContent(appId, "components/Banner.jsx")).toBeUndefined();
  const about = await currentContent(appId, "pages/About.jsx");
  expect(about).not.toContain("import Banner");
  expect(about).toContain("export default function About()");

  // 375 px: nothing scrolls sideways, the panel is whole.
  await page.setViewportSize({ width: 375, height: 800 });
  await fileItem(page, "About.jsx").click();
  await expect(editorOf(page, "pages/About.jsx")).toBeVisible();
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    screen: window.innerWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.screen);
  await page.screenshot({ path: test.info().outputPath("code-375.png"), fullPage: true });
  await expectNoA11yViolationsInBothThemes(page, "Code panel, 375 px", undefined, SPACE_PREVIEW_FRAME);
});
