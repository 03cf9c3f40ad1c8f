import { describe, expect, it } from "vitest";
import { modelPrice, runCost } from "@/lib/ai/prices";
import { CustomField } from "@/lib/apps/schemas";
import type { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";
import { rowConditions } from "@/lib/runs/grounding";
import { checkInputs } from "@/lib/runs/inputs";
import { buildPrompt, FOLLOW_INSTRUCTIONS, retrievalQuery } from "@/lib/runs/prompt";
import { fillTemplate } from "@/lib/text";

// The pure parts of a run: the inputs checked against the form, the prompt, the retrieval query,
// the smart filter's conditions and the price table.

const f = (o: Record<string, unknown>) => CustomField.parse({ type: "text", ...o });
const content = (gptPrompt: string) => ({ gptPrompt, blocks: [] });

describe("buildPrompt", () => {
  it("replaces every tag once, the main input included, and leaves unknown tags alone", () => {
    const fields = [
      f({ name: "a" }),
      f({ name: "b", type: "multiselect" }),
      f({ name: "h", type: "height" }),
    ];
    const p = buildPrompt(
      content("A=[a] B=[b] H=[h] I=[input] X=[unknown]"),
      fields,
      { input: "main", a: "[b]", b: ["x", "y"], h: 180 },
      { kind: "none" },
    );
    // A value that looks like a tag stays as it is: it is never replaced again.
    expect(p.instructions).toBe("A=[b] B=x, y H=180 cm I=main X=[unknown]");
    expect(p.prompt).toBe(FOLLOW_INSTRUCTIONS);
  });

  it("an empty value reads '(not given)'; the main input without a tag is the user's turn", () => {
    const p = buildPrompt(
      content("For [a]."),
      [f({ name: "a" })],
      { input: "Question?", a: null },
      { kind: "none" },
    );
    expect(p.instructions).toBe("For (not given).");
    expect(p.prompt).toBe("Question?");
  });

  it("personal fields need no tag; fields that need activation are left out; data comes last", () => {
    const fields = [
      f({ name: "email", label: "Email", type: "email", personal: true }),
      f({ name: "note", label: "Note" }),
    ];
    const p = buildPrompt(
      content("Help."),
      fields,
      { input: "hi", email: "a@b.co", note: "secret" },
      {
        kind: "chunks",
        chunks: [{ itemName: 'a "b"', text: "Fact one." }],
      },
    );
    expect(p.instructions).toBe(
      [
        "Help.",
        "About the user:\n- Email: a@b.co",
        "Use the following excerpts of the app's data where they are relevant, and prefer them to general knowledge:\n" +
          "<excerpt 1 source=\"a 'b'\">\nFact one.\n</excerpt>",
      ].join("\n\n"),
    );
    expect(p.instructions).not.toContain("secret");
  });

  it("the instruction blocks, when there are any, are the instructions", () => {
    const p = buildPrompt(
      {
        gptPrompt: "ignored",
        blocks: [
          { type: "instructions", text: "One [a]" },
          { type: "instructions", text: "Two" },
        ],
      },
      [f({ name: "a" })],
      { input: "q", a: "x" },
      { kind: "rows", rows: [{ name: "Tea", size: "S" }] },
    );
    expect(p.instructions).toBe(
      "One x\n\nTwo\n\nThese items of the app's data match the user's choices; base the answer on them:\n1. name: Tea; size: S",
    );
  });
});

describe("retrievalQuery", () => {
  it("is what the end user gave, one value a line: retrieval splits it as it split the data", () => {
    expect(
      retrievalQuery({
        input: 'What changed in 0.21 for audio/midi? "refund" -policy',
        n: 12414,
        list: ["Green tea", "libtasn1.h"],
        e: null,
      }),
    ).toBe('What changed in 0.21 for audio/midi? "refund" -policy\n12414\nGreen tea\nlibtasn1.h');
    expect(retrievalQuery({ input: "  ", e: null })).toBe("");
  });
});

describe("checkInputs", () => {
  const fields = [
    f({
      name: "size",
      label: "Size",
      type: "select",
      required: true,
      options: [{ label: "Small" }, { label: "Large" }],
    }),
    f({ name: "tags", type: "multiselect", options: [{ label: "A" }, { label: "B" }] }),
    f({ name: "w", label: "Weight", type: "weight" }),
  ];
  const fail = (raw: Record<string, unknown>) => {
    try {
      checkInputs({ isInputHidden: false }, fields, raw as never);
    } catch (err) {
      return err as AppError;
    }
    throw new Error("expected a refusal");
  };

  it("keeps the form's fields, with options as they are labelled and numbers as numbers", () => {
    expect(
      checkInputs({ isInputHidden: false }, fields, {
        input: " hi ",
        size: "small",
        tags: ["b", "a", "B"],
        w: "70,5",
        extra: "x",
      }),
    ).toEqual({ input: "hi", size: "Small", tags: ["B", "A"], w: 70.5 });
  });

  it("refuses a missing required field, an unknown option, a bad number, naming the field", () => {
    expect(fail({ input: "x" })).toMatchObject({
      code: "FIELD_REQUIRED",
      message: fillTemplate(messages.runFieldRequired, { label: "Size" }),
      extra: { field: "size" },
    });
    expect(fail({ size: "Huge" })).toMatchObject({ code: "OPTION_INVALID", extra: { field: "size" } });
    expect(fail({ size: "Small", tags: ["C"] })).toMatchObject({
      code: "OPTION_INVALID",
      extra: { field: "tags" },
    });
    expect(fail({ size: "Small", w: -1 })).toMatchObject({ code: "INVALID_INPUT", extra: { field: "w" } });
  });

  it("a hidden main input is not taken; a form left empty is refused", () => {
    expect(checkInputs({ isInputHidden: true }, [], { input: "ignored" })).toEqual({});
    expect(() => checkInputs({ isInputHidden: false }, [], { input: "  " })).toThrow(messages.runInputEmpty);
  });
});

describe("rowConditions", () => {
  it("one condition per filtering field with a value: its label (else its name) is the column", () => {
    const fields = [
      f({ name: "colour", label: "Colour", filterCondition: "include" }),
      f({ name: "size", filterCondition: "exclude" }),
      f({ name: "empty", filterCondition: "include" }),
      f({ name: "plain" }),
    ];
    expect(rowConditions(fields, { colour: "Green", size: ["S", "M"], empty: null, plain: "x" })).toEqual([
      { column: "Colour", values: ["Green"], mode: "include" },
      { column: "size", values: ["S", "M"], mode: "exclude" },
    ]);
  });
});

describe("prices", () => {
  it("known models by id, provider prefix and dated snapshot; unknown ones cost 0 and say so", () => {
    expect(modelPrice("gpt-4o-mini")).toEqual({ inputPerMillion: 0.15, outputPerMillion: 0.6 });
    expect(modelPrice("openai/gpt-4o-mini-2024-07-18")).toEqual(modelPrice("gpt-4o-mini"));
    expect(modelPrice("gpt-4o-2024-08-06")).toEqual({ inputPerMillion: 2.5, outputPerMillion: 10 });
    expect(modelPrice("llama3.1:8b")).toBeNull();
    expect(runCost("gpt-4o-mini", { promptTokens: 1000, completionTokens: 500 })).toEqual({
      costUsd: 0.00045,
      costKnown: true,
    });
    expect(runCost("llama3.1:8b", { promptTokens: 1000, completionTokens: 500 })).toEqual({
      costUsd: 0,
      costKnown: false,
    });
  });
});
