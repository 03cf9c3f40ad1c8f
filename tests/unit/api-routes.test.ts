import { describe, expect, it } from "vitest";
import { docComments, urlPathOf } from "../../scripts/api-routes";

describe("urlPathOf", () => {
  it("turns a route file into its URL template", () => {
    expect(urlPathOf("app/api/identity/sign-up/route.ts")).toBe("/api/identity/sign-up");
    expect(urlPathOf("app/api/apps/[appId]/tools/[toolId]/route.ts")).toBe(
      "/api/apps/{appId}/tools/{toolId}",
    );
    expect(urlPathOf("app/api/auth/[...nextauth]/route.ts")).toBe("/api/auth/{nextauth}");
    expect(urlPathOf("app/api/pages/[[...slug]]/route.ts")).toBe("/api/pages/{slug}");
    expect(urlPathOf("app/api/(admin)/stats/route.ts")).toBe("/api/stats");
    expect(urlPathOf("app/api/openapi.json/route.ts")).toBe("/api/openapi.json");
  });
});

describe("docComments", () => {
  it("reads each handler's comment: the first sentence is the summary, all of it the description", () => {
    const source = [
      'import { route } from "@/lib/api/route";',
      "",
      "// POST /api/webhooks/stripe - Stripe's signed events. Public: the signature over the raw body",
      "// is the authorization, e.g. of a checkout.",
      "export const POST = route({ auth: 'public', raw: true }, handler);",
      "",
      "// GET /api/dev/outbox?to= - mails written to the outbox; absent in production",
      "export const GET = route({ auth: 'public' }, handler);",
      "// not a route comment - GET",
    ].join("\n");
    expect(docComments(source)).toEqual({
      POST: {
        summary: "Stripe's signed events",
        description:
          "Stripe's signed events. Public: the signature over the raw body is the authorization, e.g. of a checkout.",
      },
      GET: { summary: "Mails written to the outbox; absent in production" },
    });
  });

  it("gives one comment to every method it names", () => {
    const docs = docComments("// GET|POST /api/auth/* - Auth.js: sign-in providers, session, sign-out");
    expect(docs.GET).toEqual({ summary: "Auth.js: sign-in providers, session, sign-out" });
    expect(docs.POST).toEqual(docs.GET);
    expect(docs.DELETE).toBeUndefined();
  });
});
