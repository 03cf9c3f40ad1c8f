import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as sendVerification from "@/app/api/identity/send-verification-email/route";
import * as signUpRoute from "@/app/api/identity/sign-up/route";
import * as verifyEmail from "@/app/api/identity/verify-email/route";
import { db } from "@/db/client";
import { findUserByEmail } from "@/db/queries/users";
import { MAIL_SENDS_PER_ADDRESS } from "@/lib/constants";
import { messages } from "@/lib/messages";
import {
  createBuilder,
  createDraftApp,
  createPublishedApp,
  expireCodesOf,
  fromIp,
  lastMailTo,
  lifetimeOfLatestCode,
  linkIn,
  mailsTo,
  oobCodeIn,
  STRONG_PASSWORD,
  tokenFor,
  uniqueEmail,
} from "../support/factories";
import { call } from "../support/http";

const APP_URL = "http://localhost:3000";

const signUp = (body: Record<string, unknown>) =>
  call(signUpRoute.POST, { path: "/api/identity/sign-up", body, headers: fromIp() });

const verify = (oobCode: string) =>
  call(verifyEmail.POST, { path: "/api/identity/verify-email", body: { oobCode }, headers: fromIp() });

describe("sign-up messages", () => {
  const weak = (password: string) => async () => {
    const res = await signUp({ email: uniqueEmail(), password });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: { code: "auth/weak-password", message: messages.passwordTooWeak } });
  };

  it("refuses a common password as too weak", weak("password"));
  it("refuses a common password whatever its case", weak("Football"));
  it("refuses a password shorter than 8 characters", weak("Xk9#qL2"));
  it("refuses a password longer than 128 characters", weak(`Xk9#qL2v${"z".repeat(121)}`));
  it("refuses a password of fewer than 3 distinct characters", weak("abababababab"));

  it("accepts exactly 8 and exactly 128 characters", async () => {
    for (const password of ["Xk9#qL2v", `Xk9#qL2v${"z".repeat(120)}`]) {
      const res = await signUp({ email: uniqueEmail(), password });
      expect(res.status, password).toBe(200);
    }
  });

  it("answers 409 'This email is already in use, try logging in' for a taken email, whatever its case", async () => {
    const email = uniqueEmail("taken");
    expect((await signUp({ email, password: STRONG_PASSWORD })).status).toBe(200);
    for (const again of [email, email.toUpperCase(), `  ${email} `]) {
      const res = await signUp({ email: again, password: STRONG_PASSWORD });
      expect(res.status).toBe(409);
      expect(res.json).toEqual({
        error: { code: "auth/email-already-exists", message: messages.emailInUseSignup },
      });
    }
  });

  it("answers 'This email is invalid' for a malformed email", async () => {
    for (const email of ["not-an-email", "a@", "@b.com", "a b@c.com", ""]) {
      const res = await signUp({ email, password: STRONG_PASSWORD });
      expect(res.status, email).toBe(400);
      expect(res.json).toEqual({ error: { code: "auth/invalid-email", message: messages.emailInvalid } });
    }
  });

  it("lets the same email sign up as a builder and as an end user of an app (emails are per tenant)", async () => {
    const owner = await createBuilder();
    const app = await createPublishedApp(owner.account.accountId);
    const email = uniqueEmail("both");
    expect((await signUp({ email, password: STRONG_PASSWORD })).status).toBe(200);
    expect((await signUp({ email, password: STRONG_PASSWORD, appId: app.id })).status).toBe(200);
    expect((await signUp({ email, password: STRONG_PASSWORD, appId: app.id })).status).toBe(409);
  });

  it("refuses end-user sign-up to an unpublished or unknown app with 404", async () => {
    const owner = await createBuilder();
    const draft = await createDraftApp(owner.account.accountId);
    for (const appId of [draft.id, crypto.randomUUID(), "not-a-uuid"]) {
      const res = await signUp({ email: uniqueEmail(), password: STRONG_PASSWORD, appId });
      expect(res.status, appId).toBe(404);
      expect(res.json.error).toEqual({ code: "NOT_FOUND", message: messages.appNotFound });
    }
  });
});

const sendVerificationMail = (token: string, body: Record<string, unknown> = {}) =>
  call(sendVerification.POST, {
    path: "/api/identity/send-verification-email",
    token,
    body,
    headers: fromIp(),
  });

describe("email verification", () => {
  it("mails a link to an unverified builder; the link verifies once, and continues where asked", async () => {
    const builder = await createBuilder({ verified: false });
    const email = builder.user.email;
    const res = await sendVerificationMail(builder.token, { continueUrl: "/build/app/42?tab=data#top" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ alreadyVerified: false });
    const mail = await lastMailTo(email);
    const link = linkIn(mail);
    expect(link.origin).toBe(APP_URL);
    expect(link.pathname).toBe("/auth/handler");
    expect(link.searchParams.get("mode")).toBe("verifyEmail");
    expect(link.searchParams.get("continueUrl")).toBe("/build/app/42?tab=data#top");

    const first = await verify(oobCodeIn(mail));
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ continueUrl: "/build/app/42?tab=data#top", alreadyVerified: false });
    expect((await findUserByEmail(null, email))?.emailVerifiedAt).toBeInstanceOf(Date);

    // Opened a second time: the address is verified, so it says so and continues the same way.
    const second = await verify(oobCodeIn(mail));
    expect(second.status).toBe(200);
    expect(second.json).toEqual({ continueUrl: "/build/app/42?tab=data#top", alreadyVerified: true });
  });

  it("a used link of an address that is not verified (any more) still fails", async () => {
    const builder = await createBuilder({ verified: false });
    await sendVerificationMail(builder.token);
    const mail = await lastMailTo(builder.user.email);
    expect((await verify(oobCodeIn(mail))).status).toBe(200);
    await db().execute(sql`UPDATE users SET email_verified_at = NULL WHERE id = ${builder.user.id}`);
    const again = await verify(oobCodeIn(mail));
    expect(again.status).toBe(400);
    expect(again.json).toEqual({
      error: { code: "auth/invalid-action-code", message: messages.verifyLinkInvalid },
    });
  });

  it("works for a user who just signed up through the API", async () => {
    const email = uniqueEmail("fresh");
    expect((await signUp({ email, password: STRONG_PASSWORD })).status).toBe(200);
    const user = (await findUserByEmail(null, email))!;
    expect(user.emailVerifiedAt).toBeNull();
    expect((await sendVerificationMail(await tokenFor(user))).status).toBe(200);
    const res = await verify(oobCodeIn(await lastMailTo(email)));
    expect(res.json).toEqual({ continueUrl: "/home", alreadyVerified: false });
    expect((await findUserByEmail(null, email))?.emailVerifiedAt).toBeInstanceOf(Date);
  });

  it("links live 1 hour and are refused once expired", async () => {
    const builder = await createBuilder({ verified: false });
    expect((await sendVerificationMail(builder.token)).status).toBe(200);
    expect(await lifetimeOfLatestCode(builder.user.email, "verify_email")).toBeCloseTo(3600, -1);
    const mail = await lastMailTo(builder.user.email);
    await expireCodesOf(builder.user.email);
    const res = await verify(oobCodeIn(mail));
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual({ code: "auth/invalid-action-code", message: messages.verifyLinkInvalid });
    expect((await findUserByEmail(null, builder.user.email))?.emailVerifiedAt).toBeNull();
  });

  it("an expired link of an address verified since (another way) says so, and continues", async () => {
    const builder = await createBuilder({ verified: false });
    await sendVerificationMail(builder.token, { continueUrl: "/joinplan" });
    const mail = await lastMailTo(builder.user.email);
    await db().execute(sql`UPDATE users SET email_verified_at = now() WHERE id = ${builder.user.id}`);
    await expireCodesOf(builder.user.email);
    const res = await verify(oobCodeIn(mail));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ continueUrl: "/joinplan", alreadyVerified: true });
  });

  it("a used link fails once the verified user has moved to another address", async () => {
    const builder = await createBuilder({ verified: false });
    await sendVerificationMail(builder.token);
    const mail = await lastMailTo(builder.user.email);
    expect((await verify(oobCodeIn(mail))).status).toBe(200);
    await db().execute(sql`UPDATE users SET email = ${uniqueEmail("moved")} WHERE id = ${builder.user.id}`);
    const again = await verify(oobCodeIn(mail));
    expect(again.status).toBe(400);
    expect(again.json.error).toEqual({
      code: "auth/invalid-action-code",
      message: messages.verifyLinkInvalid,
    });
  });

  it("refuses a garbage link", async () => {
    const res = await verify("definitely-not-a-code");
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual({ code: "auth/invalid-action-code", message: messages.verifyLinkInvalid });
  });

  it("sends nothing to an already verified user", async () => {
    const builder = await createBuilder();
    const res = await sendVerificationMail(builder.token);
    expect(res.json).toEqual({ alreadyVerified: true });
    expect(await mailsTo(builder.user.email)).toHaveLength(0);
  });

  it("limits resends per address", async () => {
    const builder = await createBuilder({ verified: false });
    for (let i = 0; i < MAIL_SENDS_PER_ADDRESS; i++)
      expect((await sendVerificationMail(builder.token)).status).toBe(200);
    const res = await sendVerificationMail(builder.token);
    expect(res.status).toBe(429);
    expect(res.json.error).toEqual({ code: "RATE_LIMITED", message: messages.tooManyRequests });
  });

  it("a link sent to an address the user has since left verifies nothing", async () => {
    const builder = await createBuilder({ verified: false });
    await sendVerificationMail(builder.token);
    const mail = await lastMailTo(builder.user.email);
    await db().execute(sql`UPDATE users SET email = ${uniqueEmail("moved")} WHERE id = ${builder.user.id}`);
    const res = await verify(oobCodeIn(mail));
    expect(res.status).toBe(400);
  });

  it.each([
    "https://evil.com/phish",
    "//evil.com",
    "/\\evil.com",
    "javascript:alert(1)",
    "https://localhost:3000.evil.com/",
    "/\t/evil.com",
    "/.//evil.com",
  ])("never puts a foreign continueUrl (%s) in the link or the answer", async (continueUrl) => {
    const builder = await createBuilder({ verified: false });
    expect((await sendVerificationMail(builder.token, { continueUrl })).status).toBe(200);
    const mail = await lastMailTo(builder.user.email);
    const link = linkIn(mail);
    expect(link.origin).toBe(APP_URL);
    expect(link.searchParams.get("continueUrl")).toBe("/home");
    const res = await verify(oobCodeIn(mail));
    expect(res.json).toEqual({ continueUrl: "/home", alreadyVerified: false });
  });
});
