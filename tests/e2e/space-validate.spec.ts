import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { SpaceChatPage } from "./pages/space-chat-page";
import { createApp, createBuilder } from "./support/db";
import { seedVersion } from "./support/space";
import { logInAsBuilder } from "./support/ui";

// The admin's validate tester beside the preview of a space app: Validate checks the version on
// show (its build, lint, entity schemas, and the runtime errors the preview reported) and lists
// each issue with its file:line and severity; Re-validate runs again; a failure says 'Failed to
// validate'. A builder who is not an admin has no tester.

const tag = () => crypto.randomUUID().slice(0, 6);

/** A version with three known defects: an undefined name, a bad entity schema, a runtime throw. */
const BROKEN = {
  "pages/Home.jsx": `import { useEffect } from "react";
import OrderList from "../components/OrderList";

export default function Home() {
  useEffect(() => {
    const timer = setTimeout(() => {
      throw new Error("The chart has no data");
    }, 0);
    return () => clearTimeout(timer);
  }, []);
  return (
    <main className="p-6">
      <h1 className="text-2xl font-bold">Orders</h1>
      <OrderList />
    </main>
  );
}
`,
  "components/OrderList.jsx": `export default function OrderList() {
  return (
    <button type="button" onClick={() => formatPrice(10)}>
      Price
    </button>
  );
}
`,
  "entities/Order.json": `{
  "type": "object",
  "properties": {
    "total": { "type": "money" }
  }
}
`,
};

test("an admin validates the version on show: issues with file:line and severity, Re-validate, 'Failed to validate'; a builder has no tester", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const admin = await createBuilder({ plan: "explorer", isAdmin: true });
  const { appId } = await createApp(admin, { type: "space", header: `Validate ${tag()}` });
  await seedVersion(appId, admin.accountId!, BROKEN, { current: true });
  await logInAsBuilder(page, admin);

  const chat = new SpaceChatPage(page, appId);
  await chat.goto();
  await chat.expectPreviewHeading("Orders");
  // The preview reported the runtime error first (the floating issues panel shows it).
  await expect(page.getByRole("region", { name: messages.issuesTitle })).toContainText(
    "The chart has no data",
  );

  const tester = page.getByRole("region", { name: messages.validateResultsTitle });
  await tester.getByRole("button", { name: messages.validateButton, exact: true }).click();
  await expect(tester.getByRole("button", { name: messages.revalidateButton })).toBeEnabled({
    timeout: 60_000,
  });
  await expect(tester).toContainText(fillTemplate(messages.validateIssueCount, { n: 3 }));
  const items = tester.getByRole("listitem");
  await expect(items).toHaveCount(3);
  await expect(items.filter({ hasText: "components/OrderList.jsx:3" })).toContainText(
    "'formatPrice' is not defined.",
  );
  await expect(items.filter({ hasText: "entities/Order.json:4" })).toContainText("error");
  await expect(items.filter({ hasText: "pages/Home.jsx:7" })).toContainText("The chart has no data");
  await page.screenshot({ path: test.info().outputPath("validation-results.png") });

  // Re-validate: the same version, the same issues.
  await tester.getByRole("button", { name: messages.revalidateButton }).click();
  await expect(tester.getByRole("button", { name: messages.revalidateButton })).toBeEnabled({
    timeout: 60_000,
  });
  await expect(items).toHaveCount(3);

  // A failure of the call: the spec's alert.
  await page.route("**/validate", (route) =>
    route.fulfill({ status: 500, json: { error: { code: "INTERNAL", message: "boom" } } }),
  );
  await tester.getByRole("button", { name: messages.revalidateButton }).click();
  await expect(tester.getByRole("alert")).toHaveText(
    fillTemplate(messages.validateAlert, { message: messages.validateFailed }),
  );

  // A builder who is not an admin: the same app of theirs shows no tester.
  const builder = await createBuilder({ plan: "explorer" });
  const own = await createApp(builder, { type: "space", header: `Own ${tag()}` });
  await seedVersion(own.appId, builder.accountId!, BROKEN, { current: true });
  await page.context().clearCookies();
  await logInAsBuilder(page, builder);
  const theirs = new SpaceChatPage(page, own.appId);
  await theirs.goto();
  await theirs.expectPreviewHeading("Orders");
  await expect(page.getByRole("region", { name: messages.validateResultsTitle })).toHaveCount(0);
});
