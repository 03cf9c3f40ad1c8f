import { expect, type Page, test } from "@playwright/test";
import { HomePage } from "./pages/home-page";
import { LoginPage } from "./pages/login-page";
import { createPublishedApp, findUser, uniqueEmail } from "./support/db";

// Google sign-in opens a popup running Auth.js's Google (OIDC) provider. scripts/e2e.ts points
// it at a local OpenID Connect provider (tests/support/oidc-server.ts); the spec chooses which
// Google account "signs in" through that provider's test endpoint.

// The provider has one "next account" at a time: these tests take turns.
test.describe.configure({ mode: "serial" });

async function nextGoogleAccount(email: string) {
  const issuer = process.env.E2E_OIDC_ISSUER;
  if (!issuer)
    throw new Error("E2E_OIDC_ISSUER is not set: run the end-to-end tests with `npm run test:e2e`");
  const res = await fetch(`${issuer}/test/user`, {
    method: "POST",
    body: JSON.stringify({ sub: `google-${email}`, email, name: "Google Person" }),
  });
  expect(res.ok).toBe(true);
}

async function continueWithGoogle(page: Page) {
  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  const popup = await popupOpened;
  await popup.waitForEvent("close", { timeout: 30_000 });
}

test("a builder signs up with the Google popup and lands on /home, verified", async ({ page }) => {
  const email = uniqueEmail("google-builder");
  await nextGoogleAccount(email);
  await new LoginPage(page).goto();
  await continueWithGoogle(page);
  await page.waitForURL("**/home");
  await expect(new HomePage(page).signedInAs(email)).toBeVisible();
  const user = await findUser(email);
  expect(user?.email_verified_at).not.toBeNull();
});

test("an end user signs in to a published app with the Google popup", async ({ page }) => {
  const app = await createPublishedApp("Google App");
  const email = uniqueEmail("google-enduser");
  await nextGoogleAccount(email);
  await page.goto(`/app/${app.appId}/login?method=password`);
  await continueWithGoogle(page);
  await page.waitForURL(`**/app/${app.appId}`);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  expect(await findUser(email, app.appId)).toBeTruthy();
  // The same Google account is a different user of the platform: not a builder.
  expect(await findUser(email)).toBeFalsy();
});
