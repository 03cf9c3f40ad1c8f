import { expect, test } from "@playwright/test";
import { LoginPage } from "./pages/login-page";
import { SettingsPage } from "./pages/settings-page";
import { VerifyEmailPage } from "./pages/verify-email-page";
import { createBuilder, createEndUser, createPublishedApp } from "./support/db";

// proxy.ts: builder pages send whoever is not a signed-in, verified builder elsewhere, keeping
// the whole address (query included) to come back to. /item/... and /tool/... are never
// redirected away from.

test("an anonymous visit to /settings?x=1 goes to log in, and the login comes back to /settings?x=1", async ({
  page,
  baseURL,
}) => {
  const builder = await createBuilder();
  await page.goto("/settings?x=1");
  await expect(page).toHaveURL(`${baseURL}/login?redirectTo=%2Fsettings%3Fx%3D1`);

  await new LoginPage(page).logIn(builder.email, builder.password);
  await expect(page).toHaveURL(`${baseURL}/settings?x=1`);
  await expect(new SettingsPage(page).heading).toBeVisible();
});

test("an unverified builder who logs in is sent to verify the email, with where they were going", async ({
  page,
  baseURL,
}) => {
  const builder = await createBuilder({ verified: false });
  const login = new LoginPage(page);
  await login.goto();
  await login.logIn(builder.email, builder.password);
  await expect(page).toHaveURL(`${baseURL}/auth/verifyEmail?continueUrl=%2Fhome`);
  await expect(new VerifyEmailPage(page).heading).toBeVisible();

  // A builder page asked for by address sends them there too, remembering the page and its query.
  await page.goto("/settings?x=1");
  await expect(page).toHaveURL(`${baseURL}/auth/verifyEmail?continueUrl=%2Fsettings%3Fx%3D1`);
  await expect(new VerifyEmailPage(page).heading).toBeVisible();
});

test("an end user signed in to an app is not a builder: /home sends them to log in", async ({
  page,
  baseURL,
}) => {
  const app = await createPublishedApp("Proxy App");
  const endUser = await createEndUser(app.appId);
  await page.goto(`/app/${app.appId}/login?method=password`);
  await new LoginPage(page).logIn(endUser.email, endUser.password);
  await expect(page).toHaveURL(`${baseURL}/app/${app.appId}`);
  await expect(page.getByText(`Signed in as ${endUser.email}`)).toBeVisible();

  await page.goto("/home");
  await expect(page).toHaveURL(`${baseURL}/login?redirectTo=%2Fhome`);
});

for (const path of ["/tool/anything", "/item/anything", "/tool/some/deeper/path?x=1", "/item/abc/def"]) {
  test(`an anonymous visit to ${path} is not redirected`, async ({ page, baseURL }) => {
    const response = await page.goto(path);
    // Whatever the page answers (404 today), it answers at this address.
    expect(response?.request().redirectedFrom()).toBeNull();
    expect(response?.status()).not.toBe(307);
    // Hydrated and settled: a client-side redirect would have happened by now.
    await page.waitForLoadState("networkidle");
    await expect(page).toHaveURL(`${baseURL}${path}`);
    expect(page.url()).not.toContain("/login");
  });
}
