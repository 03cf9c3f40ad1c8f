import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import * as paidPlans from "@/app/api/app/paidPlans/route";
import * as checkout from "@/app/api/billing/checkout/route";
import * as sendVerification from "@/app/api/identity/send-verification-email/route";
import * as signUp from "@/app/api/identity/sign-up/route";
import * as sendMagic from "@/app/api/live_api/account/sendMagicLink/route";
import { messages } from "@/lib/messages";
import { proxy } from "@/proxy";
import { createBuilder, createPublishedApp, fromIp, lastMailTo, uniqueEmail } from "../support/factories";
import { call } from "../support/http";

const APP_URL = process.env.APP_URL ?? "http://localhost:3000";

describe("security headers", () => {
  it("an API answer: nosniff, referrer and permissions policies, a CSP that runs nothing, no-store", async () => {
    for (const res of [
      await call(signUp.POST, { path: "/api/identity/sign-up", body: { email: "bad" }, headers: fromIp() }),
      await call(signUp.POST, {
        path: "/api/identity/sign-up",
        body: { email: uniqueEmail(), password: "correct horse battery 9" },
        headers: fromIp(),
      }),
    ]) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("permissions-policy")).toContain("camera=()");
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get("cache-control")).toBe("no-store");
      // http APP_URL (this test run): no HSTS, which would pin a plain-http host.
      expect(res.headers.get("strict-transport-security")).toBeNull();
    }
  });

  const page = (path: string) => proxy(new NextRequest(`${APP_URL}${path}`));

  it("a page: a nonce CSP that Next also receives, and no framing for account pages", async () => {
    for (const path of ["/login", "/", "/settings"]) {
      const res = await page(path);
      const csp = res.headers.get("content-security-policy") ?? "";
      const nonce = csp.match(/'nonce-([A-Za-z0-9+/=]+)'/)?.[1];
      expect(nonce, path).toBeTruthy();
      expect(csp).toContain("'strict-dynamic'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      // A fresh nonce per request.
      const again = (await page(path)).headers.get("content-security-policy");
      expect(again).not.toBe(csp);
    }
    // Next puts the nonce on its scripts when the request carries the policy.
    const res = await page("/login");
    expect(res.headers.get("x-middleware-request-content-security-policy")).toBe(
      res.headers.get("content-security-policy"),
    );
  });

  it("published app pages may be embedded on the builder's (https) site", async () => {
    const res = await page("/app/5f0c3f4e-8d7a-4a53-9e0e-3f1f7a4f2b10/login");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'self' https:");
    expect(res.headers.get("x-frame-options")).toBeNull();
  });
});

describe("builders who have not verified their address", () => {
  const notVerified = { code: "auth/email-not-verified", message: messages.emailNotVerified };

  it("are refused by builder APIs, checkout included, with the unverified-email answer", async () => {
    const builder = await createBuilder({ verified: false });
    const start = await call(checkout.POST, {
      path: "/api/billing/checkout",
      body: { planId: "explorer", interval: "monthly" },
      token: builder.token,
    });
    expect(start.status).toBe(403);
    expect(start.json.error).toEqual(notVerified);
    const plans = await call(paidPlans.GET, {
      method: "GET",
      path: "/api/app/paidPlans",
      token: builder.token,
    });
    expect(plans.status).toBe(403);
    expect(plans.json.error).toEqual(notVerified);
  });

  it("can still ask for their verification mail", async () => {
    const builder = await createBuilder({ verified: false });
    const res = await call(sendVerification.POST, {
      path: "/api/identity/send-verification-email",
      token: builder.token,
      body: {},
      headers: fromIp(),
    });
    expect(res.status).toBe(200);
  });
});

describe("mails say only what we stored", () => {
  it("the verification mail is named by what we stored, not by an appName the caller sent", async () => {
    const builder = await createBuilder({ verified: false });
    await call(sendVerification.POST, {
      path: "/api/identity/send-verification-email",
      token: builder.token,
      body: { appName: "URGENT: your account is locked" },
      headers: fromIp(),
    });
    const mail = await lastMailTo(builder.user.email);
    expect(mail.subject).toBe(`Verify your email for ${messages.productName}`);
    expect(`${mail.text}${mail.html}`).not.toContain("URGENT");
  });

  it("a saved app name cannot add lines to a mail's headers", async () => {
    const owner = await createBuilder();
    const app = await createPublishedApp(owner.account.accountId, "Shop\r\nBcc: victim@example.com");
    const email = uniqueEmail("header");
    await call(sendMagic.POST, {
      path: `/api/live_api/account/sendMagicLink?appId=${app.id}`,
      body: { email },
      headers: fromIp(),
    });
    const mail = await lastMailTo(email);
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject).toContain("Shop Bcc: victim@example.com");
  });
});
