import { expect, type Page, test } from "@playwright/test";
import { MAGIC_CODE_MAX_ATTEMPTS } from "../../lib/constants";
import { messages } from "../../lib/messages";
import { AppLoginPage } from "./pages/app-login-page";
import { createPublishedApp, disableUser, findUser, uniqueEmail } from "./support/db";
import { codeIn, linkIn, waitForMail } from "./support/mail";
import { toast } from "./support/ui";

// End users of a published app sign in with a 6-digit code mailed to them.

const wrongCode = (code: string, n: number) => String((Number(code) + n) % 1_000_000).padStart(6, "0");

async function submitAndWait(page: Page, login: AppLoginPage, code: string) {
  const answered = page.waitForResponse((r) => r.url().includes("/api/live_api/account/validateOtp"));
  await login.enterCode(code);
  return answered;
}

test("sign in to a published app with the emailed code", async ({ page }) => {
  const app = await createPublishedApp("Recipe Wizard");
  const email = uniqueEmail("enduser");
  const login = new AppLoginPage(page, app.appId);
  await login.goto();
  await expect(login.heading).toHaveText("Sign in to Recipe Wizard");

  await login.requestCode(email);
  await expect(toast(page, messages.magicCodeSent)).toBeVisible();
  const mail = await waitForMail(email, { subject: "Recipe Wizard" });
  await expect(page.getByText(`Enter the 6-digit code we sent to ${email}`)).toBeVisible();

  await login.enterCode(codeIn(mail));
  await expect(toast(page, messages.magicSignInSuccess)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/app/${app.appId}$`));
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  // The code made an end user of this app (tenant = the app), not a builder.
  expect(await findUser(email, app.appId)).toBeTruthy();
  expect(await findUser(email, null)).toBeUndefined();
});

test("the link in the code mail signs in too, once", async ({ page }) => {
  const app = await createPublishedApp("Link App");
  const email = uniqueEmail("linker");
  const login = new AppLoginPage(page, app.appId);
  await login.goto();
  await login.requestCode(email);
  const link = linkIn(await waitForMail(email, { subject: "Link App" }));

  await page.goto(link);
  await expect(toast(page, messages.magicSignInSuccess)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/app/${app.appId}$`));
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Sign-in failed" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: messages.magicLinkInvalid })).toBeVisible();
});

test(`${MAGIC_CODE_MAX_ATTEMPTS} wrong codes kill the code`, async ({ page }) => {
  const app = await createPublishedApp("Attempts App");
  const email = uniqueEmail("guesser");
  const login = new AppLoginPage(page, app.appId);
  await login.goto();
  await login.requestCode(email);
  const code = codeIn(await waitForMail(email, { subject: "Attempts App" }));

  for (let i = 1; i < MAGIC_CODE_MAX_ATTEMPTS; i++) {
    const res = await submitAndWait(page, login, wrongCode(code, i));
    expect(res.status()).toBe(400);
    await expect(login.error(messages.otpInvalid)).toBeVisible();
  }
  const last = await submitAndWait(page, login, wrongCode(code, MAGIC_CODE_MAX_ATTEMPTS));
  expect(last.status()).toBe(429);
  await expect(login.error(messages.otpAttemptsExceeded)).toBeVisible();
  // Back to the email step: a new code is needed.
  await expect(login.sendCode).toBeVisible();

  // Even the right code is refused now.
  const res = await page.request.post(`/api/live_api/account/validateOtp?appId=${app.appId}`, {
    data: { email, otp: code },
  });
  expect(res.status()).toBe(429);
  expect((await res.json()).error).toEqual({
    code: "ATTEMPTS_EXCEEDED",
    message: messages.otpAttemptsExceeded,
  });
});

test("a sign-in that fails after the code was accepted says so", async ({ page }) => {
  const app = await createPublishedApp("Late App");
  const email = uniqueEmail("late");
  const login = new AppLoginPage(page, app.appId);
  await login.goto();
  await login.requestCode(email);
  const mail = await waitForMail(email, { subject: "Late App" });
  // The code is right, but the account is disabled (by an admin, say) before the browser
  // exchanges its custom token for a session: the exchange is refused for real.
  await page.route(/\/api\/auth\/callback\/token/, async (route) => {
    await disableUser(email, app.appId);
    await route.continue();
  });
  await login.enterCode(codeIn(mail));
  await expect(page.getByRole("alert").filter({ hasText: messages.magicSignInFailed })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/app/${app.appId}/login`));
});
