import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { retryDelayMs } from "@/lib/runs/model-stream";

// The wait before a run's retry (lib/runs/model-stream.ts): what the provider asks for in
// retry-after-ms or retry-after, when it is reasonable, else the backoff - as the AI SDK's
// streamText waited.

const failure = (headers?: Record<string, string>) =>
  new APICallError({
    message: "Overloaded",
    url: "http://model.test/v1/chat/completions",
    requestBodyValues: {},
    statusCode: 503,
    responseHeaders: headers,
  });

describe("retryDelayMs", () => {
  it("takes retry-after-ms first, then retry-after in seconds or as a date", () => {
    expect(retryDelayMs(failure({ "retry-after-ms": "250", "retry-after": "9" }), 2000)).toBe(250);
    expect(retryDelayMs(failure({ "retry-after": "3" }), 2000)).toBe(3000);
    const at = new Date(Date.now() + 5000).toUTCString();
    const fromDate = retryDelayMs(failure({ "retry-after": at }), 2000);
    expect(fromDate).toBeGreaterThan(3000);
    expect(fromDate).toBeLessThanOrEqual(5000);
  });

  it("falls back to the backoff without a header, or with one unreasonable (negative, over a minute, garbage)", () => {
    expect(retryDelayMs(failure(), 2000)).toBe(2000);
    expect(retryDelayMs(failure({ "retry-after-ms": "-5" }), 2000)).toBe(2000);
    expect(retryDelayMs(failure({ "retry-after": "120" }), 4000)).toBe(4000);
    expect(retryDelayMs(failure({ "retry-after": "soon" }), 2000)).toBe(2000);
  });
});
