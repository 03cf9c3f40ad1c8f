import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { PAYMENT_TOKEN_DEBOUNCE_MS } from "../../lib/constants";
import { messages } from "../../lib/messages";
import { fillTemplate } from "../../lib/text";
import { GUMROAD_PRODUCTS, GUMROAD_TEST_TOKEN } from "../support/gumroad-server";
import { AppLoginPage } from "./pages/app-login-page";
import { EditorPage } from "./pages/editor-page";
import { expectNoA11yViolations } from "./support/axe";
import { createApp, createBuilder, readApp, uniqueEmail } from "./support/db";
import { codeIn, waitForMail } from "./support/mail";
import { logInAsBuilder, toast } from "./support/ui";

// Paid memberships through Gumroad, against the local server that
// speaks Gumroad's API (scripts/e2e.ts starts it): the builder switches paid memberships on,
// pastes the access token (the products are listed 1000 ms after typing stops), connects a
// product, resyncs and is asked to confirm a product change; an end user signs in with an
// emailed code, meets the membership gate, buys the product on Gumroad's page and gets in.

test.use({ viewport: { width: 1280, height: 900 } });

const { membership, lifetime } = GUMROAD_PRODUCTS;

test("a builder connects a Gumroad product; an end user buys it and gets past the gate", async ({
  page,
  browser,
}) => {
  const builder = await createBuilder({ plan: "explorer" });
  // Four characters: never six digits that the sign-in mail's code could be mistaken for.
  const header = `Members ${crypto.randomUUID().slice(0, 4)}`;
  // Published, with a custom domain and sign-up on: what paid memberships need.
  const { appId } = await createApp(builder, {
    header,
    status: "active",
    settings: { customDomain: "members.example.com", isSignupEnabled: true },
  });
  await logInAsBuilder(page, builder);
  const editor = new EditorPage(page, appId);
  await editor.goto("settings");

  await page.getByRole("switch", { name: messages.appSettingsPaidMemberships }).click();
  const setup = page.getByTestId("paid-memberships");
  await expect(setup.getByText(messages.paymentsNotConnected)).toBeVisible();
  await editor.expectSaved(true);
  expect((await readApp(appId))?.settings).toMatchObject({ isPaidMembershipsEnabled: true });

  // A token Gumroad refuses.
  const token = page.getByLabel(messages.paymentsTokenLabel);
  await token.fill("not-a-gumroad-token");
  await expect(toast(page, messages.paymentsProductsFailed)).toBeVisible();
  await expect(setup.getByText(messages.gumroadTokenRefused)).toBeVisible();

  // The right one: its products are asked for once typing has stopped for 1000 ms.
  const asked = page.waitForRequest((r) => r.url().includes(`/api/apps/${appId}/payments/products`));
  const typed = Date.now();
  await token.fill(GUMROAD_TEST_TOKEN);
  const request = await asked;
  expect(Date.now() - typed).toBeGreaterThanOrEqual(PAYMENT_TOKEN_DEBOUNCE_MS - 50);
  expect(new URL(request.url()).searchParams.get("accessToken")).toBe(GUMROAD_TEST_TOKEN);

  const product = page.getByLabel(messages.paymentsProductLabel);
  await product.click();
  await page.getByRole("option", { name: membership.name }).click();
  await expect(toast(page, messages.paymentsConnected)).toBeVisible();
  await expect(
    setup.getByText(fillTemplate(messages.paymentsConnectedTo, { product: membership.name })),
  ).toBeVisible();
  // The token is saved and never shown again.
  await expect(token).toHaveValue("");
  await expect(token).toHaveAttribute("placeholder", messages.paymentsTokenSavedPlaceholder);
  await expectNoA11yViolations(page, "the paid memberships setup", '[data-testid="paid-memberships"]');

  // Changing the product asks first; cancelled, nothing changes.
  await product.click();
  await page.getByRole("option", { name: lifetime.name }).click();
  const change = page.getByRole("alertdialog", { name: messages.paymentsChangeTitle });
  await expect(change).toContainText(
    fillTemplate(messages.paymentsChangeBody, { from: membership.name, to: lifetime.name }),
  );
  await change.getByRole("button", { name: messages.cancel }).click();
  await expect(change).toHaveCount(0);
  await expect(product).toHaveText(membership.name);

  // Resync, after its confirm.
  await setup.getByRole("button", { name: messages.paymentsResync }).click();
  const resync = page.getByRole("alertdialog", { name: messages.paymentsResyncTitle });
  await resync.getByRole("button", { name: messages.paymentsResyncConfirm }).click();
  await expect(toast(page, messages.paymentsConnected)).toBeVisible();

  // ---- an end user, in a browser of their own ----
  const visitor = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const user = await visitor.newPage();
  const email = uniqueEmail("member");
  const login = new AppLoginPage(user, appId);
  await login.goto();
  await login.requestCode(email);
  await login.enterCode(codeIn(await waitForMail(email, { subject: header })));
  await expect(user).toHaveURL(new RegExp(`/app/${appId}$`));

  const gate = user.getByRole("dialog", { name: messages.membershipGateTitle });
  await expect(gate).toContainText(
    fillTemplate(messages.membershipGateBody, { product: membership.name, email }),
  );
  await expectNoA11yViolations(user, "the membership gate", '[role="dialog"]');

  // Not bought yet.
  await gate.getByRole("button", { name: messages.membershipBought }).click();
  await expect(gate.getByRole("alert")).toHaveText(
    fillTemplate(messages.membershipPurchaseNotFound, { product: membership.name, email }),
  );

  // Buys it on Gumroad's product page (a new tab), with the address they signed in with.
  const [shop] = await Promise.all([
    user.waitForEvent("popup"),
    gate.getByRole("link", { name: new RegExp(messages.membershipBuy) }).click(),
  ]);
  await expect(shop.getByRole("heading", { name: membership.name })).toBeVisible();
  await shop.getByLabel("Email").fill(email);
  await shop.getByRole("button", { name: "I want this!" }).click();
  await expect(shop.getByRole("heading", { name: "Thanks for your purchase!" })).toBeVisible();
  await shop.close();

  await gate.getByRole("button", { name: messages.membershipBought }).click();
  await expect(toast(user, messages.membershipActive)).toBeVisible();
  await expect(gate).toHaveCount(0);
  await expect(user.getByRole("button", { name: messages.membershipOpenGate })).toHaveCount(0);
  await user.reload();
  await expect(user.getByText(`Signed in as ${email}`)).toBeVisible();
  await expect(user.getByRole("dialog")).toHaveCount(0);
  await expect(user.getByRole("button", { name: messages.membershipOpenGate })).toHaveCount(0);
  await visitor.close();
});

test("paid memberships need signup enabled: the switch says so and stays off", async ({ page }) => {
  const builder = await createBuilder({ plan: "explorer" });
  const { appId } = await createApp(builder, { header: "No signup", status: "active" });
  await logInAsBuilder(page, builder);
  const editor = new EditorPage(page, appId);
  await editor.goto("settings");
  const paid = page.getByRole("switch", { name: messages.appSettingsPaidMemberships });
  await expect(paid).toBeDisabled();
  await expect(page.getByText(messages.paidMembershipsNeedSignup)).toBeVisible();
  await expect(page.getByTestId("paid-memberships")).toHaveCount(0);
});
