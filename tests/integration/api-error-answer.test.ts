import { describe, expect, it } from "vitest";
import { ApiError } from "@/components/auth/api-client";
import { planLimitReason } from "@/components/editor/data-sources/data-sources-api";
import { errorResponse } from "@/lib/api/route";
import { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";

// The client's ApiError reads an error answer as the server writes it (lib/api/route.ts
// errorResponse): the code, the message, and the answer's other fields.

/** What the client makes of the server's answer to this error. */
async function answered(err: unknown, fallback = "fallback"): Promise<ApiError> {
  const res = errorResponse(err, "request-1");
  return ApiError.fromBody(res.status, await res.json(), fallback);
}

describe("ApiError.fromBody", () => {
  it("keeps the answer's extra fields beside its code and message", async () => {
    const err = await answered(
      new AppError("CONFLICT", "invalidInput", "REVISION_CONFLICT", { current: { revision: 3 } }),
    );
    expect(err).toMatchObject({ status: 409, code: "REVISION_CONFLICT", message: messages.invalidInput });
    expect(err.extra).toEqual({ current: { revision: 3 } });
  });

  it("falls back to INTERNAL and the caller's sentence for an answer that is not ours", () => {
    for (const body of [null, "Bad Gateway", [1], { error: "nope" }, { error: { code: 5 } }]) {
      const err = ApiError.fromBody(502, body, "Try again later");
      expect(err).toMatchObject({ status: 502, code: "INTERNAL", message: "Try again later" });
    }
    expect(ApiError.fromBody(502, { error: "nope", hint: 1 }, "x").extra).toEqual({ hint: 1 });
  });
});

describe("planLimitReason (the Add data dialog's upgrade prompt)", () => {
  it("is the upgradeReason the server named, whatever the message says", async () => {
    const items = new AppError("FORBIDDEN", "upgradeReasonDataItems", "PLAN_LIMIT", {
      upgradeReason: "dataItems",
    });
    const files = new AppError(
      "FORBIDDEN",
      { key: "connectorTooManyFiles", vars: { max: 1 } },
      "PLAN_LIMIT",
      { upgradeReason: "connectorFiles" },
    );
    expect(planLimitReason(await answered(items))).toBe("dataItems");
    expect(planLimitReason(await answered(files))).toBe("connectorFiles");
  });

  it("is null for other failures, and for a reason the client does not know", async () => {
    const noReason = new AppError("FORBIDDEN", "upgradeReasonDataItems", "PLAN_LIMIT");
    const unknown = new AppError("FORBIDDEN", "upgradeReasonDataItems", "PLAN_LIMIT", {
      upgradeReason: "toString",
    });
    const notPlan = new AppError("BAD_REQUEST", "contextEnterText", "BAD_REQUEST", {
      upgradeReason: "dataItems",
    });
    for (const err of [noReason, unknown, notPlan]) expect(planLimitReason(await answered(err))).toBeNull();
    expect(planLimitReason(new Error(messages.upgradeReasonDataItems))).toBeNull();
  });
});
