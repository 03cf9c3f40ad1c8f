import { expect, test } from "@playwright/test";
import { messages } from "../../lib/messages";
import { BuilderShell } from "./pages/builder-shell";
import { EmailActionPage } from "./pages/email-action-page";
import { HomePage } from "./pages/home-page";
import { LoginPage } from "./pages/login-page";
import { SignupPage } from "./pages/signup-page";
import { VerifyEmailPage } from "./pages/verify-email-page";
import { createBuilder, findUser, PASSWORD, uniqueEmail } from "./support/db";
import { linkIn, waitForMail } from "./support/mail";
import { toast } from "./support/ui";

test("sign up, verify the email from the mail, land on /home, then log out", async ({ page, context }) => {
  const email = uniqueEmail("signup");
  const signup = new SignupPage(page);
  await signup.goto();
  await signup.signUp(email, PASSWORD);

  // An unverified builder is held at /auth/verifyEmail, which mails the link once.
  const verify = new VerifyEmailPage(page);
  await expect(verify.heading).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/verifyEmail\?continueUrl=%2Fhome$/);
  await expect(page.getByText(`We sent a verification link to ${email}`)).toBeVisible();
  await expect(toast(page, messages.verificationSent)).toBeVisible();
  const mail = await waitForMail(email, { subject: "Verify your email" });

  // The link opens in another tab, as from a mail client.
  const tab = await context.newPage();
  const action = new EmailActionPage(tab);
  await action.open(linkIn(mail));
  await expect(action.heading(messages.emailVerified)).toBeVisible();
  expect((await findUser(email))?.email_verified_at).not.toBeNull();

  // The waiting tab notices by itself and moves on.
  await expect(page).toHaveURL(/\/home$/, { timeout: 15_000 });
  const home = new HomePage(page);
  await expect(home.heading).toBeVisible();
  await expect(home.signedInAs(email)).toBeVisible();

  await action.continue.click();
  await expect(tab).toHaveURL(/\/home$/);
  await expect(new HomePage(tab).heading).toBeVisible();
  await tab.close();

  // Log out from the account menu: the cookie goes, builder pages send us back to log in,
  // the API refuses us.
  await new BuilderShell(page).logOut(email);
  await expect(page).toHaveURL(/\/login$/);
  await expect(new LoginPage(page).email).toBeVisible();
  await page.goto("/home");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fhome$/);
  const me = await page.request.get("/api/live_api/account/current");
  expect(me.status()).toBe(401);
});

test("a verification link clicked a second time says the address is already verified, and continues", async ({
  page,
}) => {
  const email = uniqueEmail("verify-twice");
  await new SignupPage(page).goto();
  await new SignupPage(page).signUp(email, PASSWORD);
  await expect(new VerifyEmailPage(page).heading).toBeVisible();
  const link = linkIn(await waitForMail(email, { subject: "Verify your email" }));

  const action = new EmailActionPage(page);
  await action.open(link);
  await expect(action.heading(messages.emailVerified)).toBeVisible();
  await action.open(link);
  await expect(action.heading(messages.emailAlreadyVerified)).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: messages.verifyLinkInvalid })).toHaveCount(0);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/home$/);
});

test("a verification link that was never valid still fails", async ({ page }) => {
  const action = new EmailActionPage(page);
  await page.goto("/auth/handler?mode=verifyEmail&oobCode=not-a-real-code");
  await expect(action.heading(messages.verificationFailed)).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: messages.verifyLinkInvalid })).toBeVisible();
});

test("signing up with an email in use, a weak password or a bad email says why", async ({ page }) => {
  const taken = await createBuilder();
  const signup = new SignupPage(page);
  await signup.goto();

  await signup.signUp(taken.email, PASSWORD);
  await expect(signup.error(messages.emailInUseSignup)).toBeVisible();

  await signup.signUp(uniqueEmail("weak"), "password");
  await expect(signup.error(messages.passwordTooWeak)).toBeVisible();

  await signup.signUp("not-an-email", PASSWORD);
  await expect(signup.error(messages.emailInvalid)).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
});
