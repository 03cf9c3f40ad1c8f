import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { SpaceChatPage } from "./pages/space-chat-page";
import { expectNoA11yViolations, SPACE_PREVIEW_FRAME } from "./support/axe";
import { createApp, createBuilder, sql } from "./support/db";
import { CHAT_IMPORT_WORD } from "./support/model-responder";
import { logInAsBuilder } from "./support/ui";

// The chat's import_entities action: the answer adds an entity and imports a CSV into it through
// the Database panel's importer, as the csv-import job (the worker runs inside the e2e server);
// the action's card follows the import to the spec's sentence, and reads it again after a reload.

test("an import_entities answer imports its CSV as a job, and its card shows the outcome", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const builder = await createBuilder({ plan: "moon" });
  const { appId } = await createApp(builder, {
    type: "space",
    header: `Imports ${crypto.randomUUID().slice(0, 6)}`,
  });
  await logInAsBuilder(page, builder);
  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  const entity = `Books${crypto.randomUUID().slice(0, 6).replaceAll("-", "")}`;
  const answer = await chat.newAnswer(() => chat.ask(`${CHAT_IMPORT_WORD} ${entity} from my reading list`));
  await expect(answer).toHaveAttribute("data-status", "complete", { timeout: 60_000 });

  const card = answer.locator("[data-action-status]").filter({
    hasText: fillTemplate(messages.chatActionImportEntities, { name: entity }),
  });
  const outcome = fillTemplate(messages.csvImportPartial, { n: 1, total: 3 });
  await expect(card.getByRole("status")).toHaveText(outcome, { timeout: 60_000 });
  await expect(card).toContainText(messages.chatActionComplete);
  const [row] = await sql<{ imported: number; failed: number }>(
    "SELECT imported, failed FROM entity_imports WHERE app_id = $1 AND entity = $2",
    [appId, entity],
  );
  expect(row).toEqual({ imported: 2, failed: 1 });

  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `.data/screens/space-chat-import-${colorScheme}.png` });
    await expectNoA11yViolations(page, `chat import card, ${colorScheme}`, undefined, SPACE_PREVIEW_FRAME);
  }

  // Reopened, the card reads the import again.
  await page.reload();
  await expect(card.getByRole("status")).toHaveText(outcome, { timeout: 45_000 });
});
