import { expect, type Page, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { AdminBuildersPage } from "./pages/admin-builders-page";
import { expectNoA11yViolations } from "./support/axe";
import { createBuilder, sql, uniqueEmail } from "./support/db";
import { logInAsBuilder, toast } from "./support/ui";

// Without payments an operator changes plans by hand: /admin/builders (administrators only)
// lists builders by email with a plan picker and an admin switch; the upgrade dialog says an
// administrator can change the plan, and shows an admin the way there.

test.describe.configure({ timeout: 120_000 });

const accountOf = async (accountId: string) =>
  (
    await sql<{ plan: string; is_admin: boolean }>(
      "SELECT plan, is_admin FROM accounts WHERE account_id = $1",
      [accountId],
    )
  )[0]!;

async function expectNoHorizontalScroll(page: Page, where: string): Promise<void> {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scrollWidth, `${where} scrolls sideways`).toBeLessThanOrEqual(clientWidth);
}

for (const colorScheme of ["light", "dark"] as const) {
  test(`an admin finds a builder by email and sets the plan and admin flag (${colorScheme})`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme });
    const admin = await createBuilder({ isAdmin: true, plan: "moon" });
    const mark = `find${colorScheme}`;
    const target = await createBuilder({ email: uniqueEmail(mark) });
    await logInAsBuilder(page, admin);

    await page.getByRole("link", { name: messages.adminBuildersNav }).click();
    const admins = new AdminBuildersPage(page);
    await expect(admins.heading).toBeVisible();
    await admins.search.fill(target.email);
    await expect(admins.rows).toHaveCount(1);
    await expect(admins.planOf(target.email)).toHaveText("Lite");
    await expectNoA11yViolations(page, `/admin/builders (${colorScheme})`);

    await admins.choosePlan(target.email, "Monetizer");
    await expect(toast(page, target.email)).toBeVisible();
    await expect.poll(async () => (await accountOf(target.accountId!)).plan).toBe("monetizer");
    await admins.adminSwitchOf(target.email).click();
    await expect(admins.adminSwitchOf(target.email)).toBeChecked();
    await expect.poll(async () => (await accountOf(target.accountId!)).is_admin).toBe(true);
    await page.screenshot({ path: `.data/screens/admin-builders-${colorScheme}.png` });

    // Their own admin switch cannot be turned off (no lock-out).
    await admins.search.fill(admin.email);
    await expect(admins.adminSwitchOf(admin.email)).toBeDisabled();

    // On a phone: nothing wider than the screen, still no violations.
    await page.setViewportSize({ width: 375, height: 800 });
    await admins.search.fill(target.email);
    await expect(admins.rows).toHaveCount(1);
    await expect(admins.planOf(target.email)).toHaveText("Monetizer");
    await expectNoHorizontalScroll(page, "/admin/builders at 375 px");
    await page.screenshot({ path: `.data/screens/admin-builders-375-${colorScheme}.png` });
    await expectNoA11yViolations(page, `/admin/builders at 375 px (${colorScheme})`);
  });
}

test("a builder who is not an admin is told the page is for administrators, and has no link to it", async ({
  page,
}) => {
  const builder = await createBuilder();
  await logInAsBuilder(page, builder);
  await expect(page.getByRole("link", { name: messages.adminBuildersNav })).toHaveCount(0);
  const admins = new AdminBuildersPage(page);
  await admins.goto();
  await expect(admins.adminOnly).toBeVisible();
  await expect(admins.rows).toHaveCount(0);
  await expect(admins.search).toHaveCount(0);
  await page.screenshot({ path: ".data/screens/admin-builders-not-admin.png" });
  await expectNoA11yViolations(page, "/admin/builders as a builder");
});

// The e2e server sells plans through a local Stripe double; a server without Stripe answers
// paymentsConfigured: false (tests/integration/billing-not-configured.test.ts). Here the real
// answer is taken and only that flag turned off, as such a server would send it.
async function paymentsOff(page: Page): Promise<void> {
  await page.route("**/api/app/paidPlans*", async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), paymentsConfigured: false } });
  });
}

test("with payments off, the upgrade dialog says an administrator changes plans", async ({ page }) => {
  const builder = await createBuilder();
  await logInAsBuilder(page, builder);
  await page.goto("/home?goto=upgrade_app_plan");
  const dialog = page.getByRole("dialog", { name: messages.upgradeDialogTitle });
  // The cards load when the dialog opens: seconds on a busy machine.
  await expect(dialog.locator('li[data-plan="explorer"]')).toBeVisible({ timeout: 30_000 });
  // Payments on (this server): no such note.
  await expect(dialog.getByText(messages.plansByAdministrator)).toHaveCount(0);

  await paymentsOff(page);
  await page.goto("/home?goto=upgrade_app_plan");
  await expect(dialog.getByText(messages.plansByAdministrator)).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByRole("link", { name: messages.plansByAdministratorLink })).toHaveCount(0);
});

test("with payments off, an admin's upgrade dialog links to the admin page", async ({ page }) => {
  const admin = await createBuilder({ isAdmin: true });
  await logInAsBuilder(page, admin);
  await paymentsOff(page);
  await page.goto("/home?goto=upgrade_app_plan");
  const dialog = page.getByRole("dialog", { name: messages.upgradeDialogTitle });
  await expect(dialog.getByText(messages.plansByAdministrator)).toBeVisible({ timeout: 30_000 });
  await expectNoA11yViolations(page, "upgrade dialog, payments off", '[role="dialog"]');
  await page.screenshot({ path: ".data/screens/upgrade-dialog-payments-off.png" });
  await dialog.getByRole("link", { name: messages.plansByAdministratorLink }).click();
  await expect(new AdminBuildersPage(page).heading).toBeVisible();
  // The dialog does not follow to the admin page.
  await expect(dialog).toBeHidden();
});
