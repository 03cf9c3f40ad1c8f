import { describe, expect, it } from "vitest";
import * as signIn from "@/app/api/identity/sign-in-with-password/route";
import * as sendMagic from "@/app/api/live_api/account/sendMagicLink/route";
import { LOGIN_FAILURES_PER_IP, MAIL_SENDS_PER_ADDRESS_AND_IP } from "@/lib/constants";
import { messages } from "@/lib/messages";
import {
  createBuilder,
  createPublishedApp,
  fromIp,
  mailsTo,
  randomIp,
  uniqueEmail,
} from "../support/factories";
import { call } from "../support/http";

// An attacker rotating X-Forwarded-For on every request is still one client: the address comes
// from the socket (our server's peer header) unless TRUSTED_PROXY_HOPS says proxies stand in front.

const rotating = (peer: string) => ({
  ...fromIp(peer),
  "x-forwarded-for": randomIp(),
  "x-real-ip": randomIp(),
});

describe("per-address limits hold against X-Forwarded-For rotation", () => {
  it("sign-in codes: one socket sending a new X-Forwarded-For each time is still limited", async () => {
    const owner = await createBuilder();
    const app = await createPublishedApp(owner.account.accountId);
    const email = uniqueEmail("rotated");
    const peer = randomIp();
    const send = () =>
      call(sendMagic.POST, {
        path: `/api/live_api/account/sendMagicLink?appId=${app.id}`,
        body: { email },
        headers: rotating(peer),
      });
    for (let i = 0; i < MAIL_SENDS_PER_ADDRESS_AND_IP; i++) expect((await send()).status).toBe(200);
    const res = await send();
    expect(res.status).toBe(429);
    expect(res.json).toEqual({ error: { code: "RATE_LIMITED", message: messages.tooManyRequests } });
    expect(await mailsTo(email)).toHaveLength(MAIL_SENDS_PER_ADDRESS_AND_IP);
  });

  it("passwords: failures over many accounts from one socket hit the per-address limit", async () => {
    const peer = randomIp();
    for (let i = 0; i < LOGIN_FAILURES_PER_IP; i++) {
      const res = await call(signIn.POST, {
        path: "/api/identity/sign-in-with-password",
        body: { email: uniqueEmail(`spray${i}`), password: "a wrong password 1" },
        headers: rotating(peer),
      });
      expect(res.status).toBe(401);
    }
    const builder = await createBuilder();
    const res = await call(signIn.POST, {
      path: "/api/identity/sign-in-with-password",
      body: { email: builder.user.email, password: "a wrong password 1" },
      headers: rotating(peer),
    });
    expect(res.status).toBe(429);
  });

  it("a long or garbage X-Forwarded-For is ignored, never a 500", async () => {
    const builder = await createBuilder();
    for (const xff of ["x".repeat(100_000), "1.2.3.4, <script>alert(1)</script>", ",,,", "::::"]) {
      const res = await call(signIn.POST, {
        path: "/api/identity/sign-in-with-password",
        body: { email: builder.user.email, password: "a wrong password 1" },
        headers: { ...fromIp(), "x-forwarded-for": xff },
      });
      expect(res.status).toBe(401);
    }
  });
});
