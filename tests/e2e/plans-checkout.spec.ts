import { expect, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { LoginPage } from "./pages/login-page";
import { createBuilder, sql } from "./support/db";

// A lite builder upgrades: the dialog opens from goto=upgrade_app_plan, monthly/yearly change the
// prices and the save badge, checkout goes through Stripe (scripts/e2e.ts runs a local double of
// Stripe's API and hosted checkout, with the real SDK in the app), the signed webhook arrives,
// and the account shows the new plan without a reload.

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k]));

test("a lite builder buys explorer through Stripe checkout and sees it", async ({ page }) => {
  const builder = await createBuilder();
  const login = new LoginPage(page);
  await login.goto(`?redirectTo=${encodeURIComponent("/home?goto=upgrade_app_plan")}`);
  await login.logIn(builder.email, builder.password);

  const dialog = page.getByRole("dialog", { name: messages.upgradeDialogTitle });
  await expect(dialog).toBeVisible();
  const explorer = dialog.locator('li[data-plan="explorer"]');
  const yearly = dialog.getByRole("radio", { name: new RegExp(messages.billingYearly) });
  const monthly = dialog.getByRole("radio", { name: messages.billingMonthly });

  // Yearly by default (a yearly price exists): $192 a year shown as $16.00 a month, save 20 %.
  await expect(yearly).toBeChecked();
  await expect(explorer).toContainText("$16.00");
  await expect(explorer).toContainText(fill(messages.planSaveBadge, { percent: 20 }));
  await expect(dialog.locator('li[data-plan="lite"]')).toHaveAttribute("data-state", "selected");

  await monthly.check();
  await expect(explorer).toContainText("$20.00");
  await expect(explorer).not.toContainText(fill(messages.planSaveBadge, { percent: 20 }));

  // Pay: the hosted checkout page of the double pays and sends the signed webhook.
  await explorer.getByRole("button", { name: /Explorer/ }).click();
  await page.waitForURL(/\/home/, { timeout: 30_000 });
  await expect(page.getByText("explorer", { exact: true }).first()).toBeVisible({ timeout: 20_000 });

  const [account] = await sql<{
    plan: string;
    plan_subscription_status: string | null;
    subscription_id: string | null;
  }>("SELECT plan, plan_subscription_status, subscription_id FROM accounts WHERE account_id = $1", [
    builder.accountId,
  ]);
  expect(account).toMatchObject({ plan: "explorer", plan_subscription_status: "active" });
  expect(account?.subscription_id).toMatch(/^sub_/);
});
