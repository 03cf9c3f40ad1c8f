import { describe, expect, it } from "vitest";
import { checkFields, emptyValues, prefill, toRunInputs } from "@/components/public-app/form-values";
import { localResetsAt, refusalOf } from "@/components/public-app/run-errors";
import { createSseSplitter, readRunStream } from "@/components/public-app/run-stream";
import { CustomField } from "@/lib/apps/schemas";
import { messages } from "@/lib/messages";
import type { RunStreamPart } from "@/lib/runs/schemas";
import { fillTemplate } from "@/lib/text";

// The public tool page's client side of a run: reading the answer stream, the form's values and
// checks, and the words of a refusal.

const body = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
      controller.close();
    },
  });

const events = (...parts: unknown[]) => parts.map((p) => `data: ${JSON.stringify(p)}\n\n`).join("");

describe("readRunStream", () => {
  it("reads the parts in order, across chunk boundaries, until [DONE]", async () => {
    const text = `${events(
      { type: "start", messageId: "r1", messageMetadata: { runId: "r1" } },
      { type: "text-start", id: "text-1" },
      { type: "text-delta", id: "text-1", delta: "Hello" },
      { type: "text-delta", id: "text-1", delta: " world" },
      { type: "text-end", id: "text-1" },
      {
        type: "finish",
        finishReason: "stop",
        messageMetadata: { runId: "r1", status: "success", usage: { promptTokens: 1, completionTokens: 2 } },
      },
    )}data: [DONE]\n\n`;
    // Split every 7 bytes, so events and even "data:" are cut in the middle.
    const chunks = text.match(/[\s\S]{1,7}/g) ?? [];
    const parts: RunStreamPart[] = [];
    expect(await readRunStream(body(...chunks), (p) => parts.push(p))).toBe("done");
    expect(parts.map((p) => p.type)).toEqual([
      "start",
      "text-start",
      "text-delta",
      "text-delta",
      "text-end",
      "finish",
    ]);
    const words = parts.flatMap((p) => (p.type === "text-delta" ? [p.delta] : []));
    expect(words.join("")).toBe("Hello world");
  });

  it("skips comments, unknown part types and lines that are not JSON", async () => {
    const parts: RunStreamPart[] = [];
    const end = await readRunStream(
      body(
        ": keep-alive\n\n",
        events({ type: "reasoning-delta", id: "r", delta: "hm" }),
        "data: {not json\n\n",
        events({ type: "error", errorText: messages.runInterrupted }),
        "data: [DONE]\n\n",
      ),
      (p) => parts.push(p),
    );
    expect(end).toBe("done");
    expect(parts).toEqual([{ type: "error", errorText: messages.runInterrupted }]);
  });

  it("says eof when the body stops without [DONE], keeping a last event with no blank line", async () => {
    const parts: RunStreamPart[] = [];
    const end = await readRunStream(
      body(
        events({ type: "text-delta", id: "t", delta: "Half" }),
        'data: {"type":"text-delta","id":"t","delta":" a"}',
      ),
      (p) => parts.push(p),
    );
    expect(end).toBe("eof");
    expect(parts).toHaveLength(2);
  });

  it("joins multi-line data and accepts CRLF", () => {
    const split = createSseSplitter();
    expect(split.push('data: {"a":\r\ndata: 1}\r\n\r\ndata: x')).toEqual(['{"a":\n1}']);
    expect(split.flush()).toEqual(["x"]);
  });
});

const fields = [
  CustomField.parse({ name: "days", label: "How many days?", type: "text", required: true }),
  CustomField.parse({ name: "height", type: "height" }),
  CustomField.parse({
    name: "interests",
    type: "multiselect",
    memorize: true,
    options: [{ label: "Food" }, { label: "Museums" }],
  }),
  CustomField.parse({
    name: "size",
    type: "select",
    memorize: true,
    options: [{ label: "S" }, { label: "M" }],
  }),
  CustomField.parse({ name: "email", type: "email", personal: true }),
];
const content = { fields, isInputHidden: false };

describe("the tool form's values", () => {
  it("starts empty, with lists for multiselects", () => {
    expect(emptyValues(content)).toEqual({
      input: "",
      days: "",
      height: "",
      interests: [],
      size: "",
      email: "",
    });
    expect(emptyValues({ fields, isInputHidden: true })).not.toHaveProperty("input");
  });

  it("finds what the server would refuse, with its message", () => {
    const values = emptyValues(content);
    expect(checkFields(fields, values)).toEqual({
      name: "days",
      message: fillTemplate(messages.runFieldRequired, { label: "How many days?" }),
    });
    expect(checkFields(fields, { ...values, days: "  " })?.name).toBe("days");
    expect(checkFields(fields, { ...values, days: "3", height: "-2" })).toEqual({
      name: "height",
      message: fillTemplate(messages.runNumberInvalid, { label: "height" }),
    });
    expect(checkFields(fields, { ...values, days: "3", height: "180,5" })).toBeNull();
  });

  it("sends numbers for heights, lists for multiselects, null for an empty number", () => {
    const values = {
      ...emptyValues(content),
      input: "Lisbon",
      days: "3",
      height: "180,5",
      interests: ["Food"],
    };
    expect(toRunInputs(content, values)).toEqual({
      input: "Lisbon",
      days: "3",
      height: 180.5,
      interests: ["Food"],
      size: "",
      email: "",
    });
    expect(toRunInputs(content, { ...values, height: "" }).height).toBeNull();
  });

  it("prefills the session's email and remembered answers, only where the form is empty", () => {
    const values = { ...emptyValues(content), size: "S" };
    const { values: next, filled } = prefill(fields, values, {
      email: "a@example.com",
      memories: { interests: ["Museums", "Gone"], size: "M", days: "9" },
    });
    // Options the field no longer has are dropped; what the user typed stays; days is not a memorize field.
    expect(next).toMatchObject({ email: "a@example.com", interests: ["Museums"], size: "S", days: "" });
    expect(filled).toEqual(["interests"]);
  });
});

describe("a refused run", () => {
  it("keeps the server's message, field and product", () => {
    expect(
      refusalOf(400, { error: { code: "FIELD_REQUIRED", message: "Please fill in Days" }, field: "days" }),
    ).toEqual({ code: "FIELD_REQUIRED", message: "Please fill in Days", field: "days" });
    const product = { id: "p1", name: "Members", url: "https://example.com/p1" };
    expect(
      refusalOf(402, {
        error: { code: "MEMBERSHIP_REQUIRED", message: messages.membershipRequired },
        product,
      }),
    ).toMatchObject({ product });
    expect(refusalOf(502, null)).toEqual({ code: "INTERNAL", message: messages.runFailed });
  });

  it("says when a limit resets in the reader's time zone", () => {
    expect(localResetsAt("2026-03-03T00:00:00.000Z", "UTC")).toBe("on Tue, 3 Mar at 00:00");
    expect(localResetsAt("2026-03-03T00:00:00.000Z", "Asia/Tokyo")).toBe("on Tue, 3 Mar at 09:00");
    expect(localResetsAt("2026-03-03T00:00:00.000Z", "America/New_York")).toBe("on Mon, 2 Mar at 19:00");
    expect(localResetsAt("not a date")).toBeNull();
    const refused = refusalOf(429, {
      error: { code: "WEEKLY_LIMIT_REACHED", message: "server words" },
      limit: { period: "week", limit: 5, used: 5, creditsPerRun: 1, resetsAt: "2026-03-09T00:00:00.000Z" },
    });
    expect(refused.message).toBe(
      fillTemplate(messages.runWeeklyLimit, { resetsAt: localResetsAt("2026-03-09T00:00:00.000Z")! }),
    );
  });
});
