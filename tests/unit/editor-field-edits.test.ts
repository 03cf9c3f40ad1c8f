import { describe, expect, it } from "vitest";
import {
  addOption,
  appendTag,
  type FieldsValue,
  moveItem,
  type PanelContext,
  planMagicField,
  planNewField,
  readMagicAnswer,
  removeField,
  removeStep,
  renameOption,
  setMultiStep,
  stepOf,
  typeBlock,
  updateField,
} from "@/components/editor/fields/field-edits";
import { checkContent, checkFieldCount } from "@/lib/apps/field-rules";
import { CustomField } from "@/lib/apps/schemas";
import { INSTRUCTIONS_MAX, OPTION_LABEL_MAX, STEP_ID_LENGTH } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";

// The custom fields panel's edits: every field and option rule the panel applies
// before anything is sent, and the patches it sends.

const lite: PanelContext = {
  isAdmin: false,
  maxCustomFields: 2,
  photoFields: false,
  isSignupEnabled: false,
  aiQueryMethod: "default",
  firstLoad: false,
};
const admin: PanelContext = { ...lite, isAdmin: true, photoFields: true, maxCustomFields: 40 };

const field = (name: string, extra: Partial<CustomField> = {}) =>
  CustomField.parse({ name, type: "text", ...extra });
const empty: FieldsValue = { fields: [], inputSteps: [], isMultiStepInput: false, gptPrompt: "" };
const text = (e: { key: keyof typeof messages; vars?: Record<string, string | number> }) =>
  fillTemplate(messages[e.key], e.vars ?? {});

describe("checkFieldCount", () => {
  it("refuses the field past the plan's count with the spec's message", () => {
    expect(checkFieldCount(1, lite)).toBeNull();
    const full = checkFieldCount(2, lite);
    expect(full && text(full)).toBe(
      "There can be a maximum of 2 custom fields, contact us if you need more fields",
    );
  });
});

describe("planNewField", () => {
  it("makes the name from the typed label, and keeps the label", () => {
    const planned = planNewField("  Favorite Color ", "text", empty, lite);
    expect(planned.ok && planned.value).toMatchObject({ name: "favorite_color", label: "Favorite Color" });
  });

  it("refuses a name taken case-insensitively, 'input', and an empty one", () => {
    const value = { ...empty, fields: [field("goal")] };
    const taken = planNewField("GOAL", "text", value, lite);
    expect(!taken.ok && text(taken.error)).toBe("Field already exists");
    const reserved = planNewField("Input", "text", empty, lite);
    expect(!reserved.ok && text(reserved.error)).toBe("Input is a reserved field name, try another name");
    const blank = planNewField("  !! ", "text", empty, lite);
    expect(!blank.ok && blank.error.key).toBe("fieldNameEmpty");
  });

  it("refuses a field past the plan's count before anything else", () => {
    const value = { ...empty, fields: [field("a"), field("b")] };
    const full = planNewField("a", "text", value, lite);
    expect(!full.ok && full.error).toEqual({ key: "maxCustomFields", vars: { n: 2 } });
  });

  it("photo needs a paid plan; place and tool_item_select need an admin after the first load", () => {
    const photo = planNewField("selfie", "photo", empty, lite);
    expect(!photo.ok && photo.error.key).toBe("upgradeReasonPhotoFields");
    expect(planNewField("selfie", "photo", empty, admin).ok).toBe(true);
    expect(typeBlock("place", lite)).toBe("adminOnly");
    expect(typeBlock("tool_item_select", { ...admin, firstLoad: true })).toBe("adminOnly");
    expect(typeBlock("place", admin)).toBeNull();
    expect(typeBlock("photo", lite)).toBe("upgrade");
    const place = planNewField("city", "place", empty, lite);
    expect(!place.ok && place.error.key).toBe("fieldTypeAdminOnly");
  });

  it("makes an email field personal, and puts a new field in the last step", () => {
    const email = planNewField("Email", "email", empty, lite);
    expect(email.ok && email.value.personal).toBe(true);
    const stepped = {
      ...empty,
      isMultiStepInput: true,
      inputSteps: [
        { id: "aaaa", title: "" },
        { id: "bbbb", title: "" },
      ],
    };
    const planned = planNewField(
      "age",
      "text",
      { ...stepped, fields: [field("x", { stepId: "aaaa" })] },
      admin,
    );
    expect(planned.ok && planned.value.stepId).toBe("bbbb");
  });
});

describe("readMagicAnswer and planMagicField", () => {
  it("reads the three failures", () => {
    const network = readMagicAnswer(0, null);
    expect(!network.ok && messages[network.key]).toBe("Failed creating the field");
    const down = readMagicAnswer(502, { error: { code: "BAD_GATEWAY" } });
    expect(!down.ok && (down.message ?? messages[down.key])).toBe("Magic edit failed");
    const noName = readMagicAnswer(200, { result: { label: "x", type: "text" } });
    expect(!noName.ok && messages[noName.key]).toBe(
      "Magic edit failed, try again using a different field name",
    );
  });

  it("quotes a server that says more (the 503 naming AI_BASE_URL)", () => {
    const answer = readMagicAnswer(503, {
      error: { code: "AI_NOT_CONFIGURED", message: messages.aiNotConfigured },
    });
    expect(!answer.ok && answer.message).toBe(messages.aiNotConfigured);
  });

  it("a spent model budget carries its upgrade reason; an unknown reason is dropped", () => {
    const message = "You've reached your plan's limit";
    const spent = readMagicAnswer(429, {
      error: { code: "MODEL_LIMIT_REACHED", message },
      upgradeReason: "modelCalls",
    });
    expect(spent).toMatchObject({ ok: false, message, upgradeReason: "modelCalls" });
    const odd = readMagicAnswer(429, { error: { code: "X", message }, upgradeReason: "toString" });
    expect(odd.ok || "upgradeReason" in odd).toBe(false);
  });

  it("checks the made field like a typed one, in the magic words", () => {
    const answer = readMagicAnswer(200, { result: field("Goal", { label: "Your goal" }) });
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    const taken = planMagicField(answer.field, { ...empty, fields: [field("goal")] }, lite);
    expect(!taken.ok && text(taken.error)).toBe("Field already exists, try another name");
    const reserved = planMagicField(field("input"), empty, lite);
    expect(!reserved.ok && text(reserved.error)).toBe("Input is a reserved field name, try another name");
    const ok = planMagicField(field("city", { type: "place" }), empty, lite);
    expect(ok.ok && ok.value.type).toBe("text");
  });
});

describe("field patches", () => {
  it("removing the last field turns multi-step input off, so the save is not refused", () => {
    const value: FieldsValue = {
      fields: [field("a", { stepId: "aaaa" })],
      inputSteps: [{ id: "aaaa", title: "" }],
      isMultiStepInput: true,
      gptPrompt: "",
    };
    const patch = removeField(value, "a");
    expect(patch).toEqual({ fields: [], isMultiStepInput: false });
    expect(checkContent({ ...value, ...patch }, value, admin)).toBeNull();
  });

  it("keeps the value rules when a field changes", () => {
    const value = { ...empty, fields: [field("contact")] };
    const patch = updateField(value, "contact", { type: "email", personal: false, memorize: true }, lite);
    expect(patch.fields?.[0]).toMatchObject({ type: "email", personal: true, memorize: false });
    const signup = { ...lite, isSignupEnabled: true };
    expect(updateField(value, "contact", { memorize: true }, signup).fields?.[0].memorize).toBe(true);
    expect(
      updateField(value, "contact", { type: "photo", memorize: true }, signup).fields?.[0].memorize,
    ).toBe(false);
    expect(
      updateField(value, "contact", { filterCondition: "include" }, lite).fields?.[0].filterCondition,
    ).toBe("none");
  });

  it("moves items", () => {
    expect(moveItem(["a", "b", "c"], 0, 2)).toEqual(["b", "c", "a"]);
    expect(moveItem(["a", "b", "c"], 2, 0)).toEqual(["c", "a", "b"]);
    expect(moveItem(["a", "b"], 0, 5)).toEqual(["a", "b"]);
  });

  it("appends a tag to the instructions, within their maximum", () => {
    expect(appendTag("", "goal")).toBe("[goal]");
    expect(appendTag("Plan for", "goal")).toBe("Plan for [goal]");
    expect(appendTag("Plan:\n", "goal")).toBe("Plan:\n[goal]");
    expect(appendTag("x".repeat(INSTRUCTIONS_MAX - 3), "goal")).toBeNull();
  });
});

describe("options", () => {
  const options = [{ label: "Red", iconUrl: null }];
  it("refuses empty and repeated labels, and caps the length", () => {
    const blank = addOption(options, "   ");
    expect(!blank.ok && text(blank.error)).toBe("Option is empty");
    const again = addOption(options, " red ");
    expect(!again.ok && text(again.error)).toBe("Option already exists");
    const long = addOption(options, "b".repeat(OPTION_LABEL_MAX + 5));
    expect(long.ok && long.value[1].label.length).toBe(OPTION_LABEL_MAX);
  });

  it("renames an option, ignoring itself", () => {
    const two = [...options, { label: "Blue", iconUrl: "/x.png" }];
    const same = renameOption(two, 0, "RED");
    expect(same.ok && same.value[0].label).toBe("RED");
    const clash = renameOption(two, 0, "blue");
    expect(!clash.ok && clash.error.key).toBe("optionExists");
    const renamed = renameOption(two, 1, "Navy");
    expect(renamed.ok && renamed.value[1]).toEqual({ label: "Navy", iconUrl: "/x.png" });
  });
});

describe("steps", () => {
  it("turn on only when custom fields exist", () => {
    const refused = setMultiStep(empty, true);
    expect(!refused.ok && text(refused.error)).toBe(
      "Add a custom field before splitting the input into steps",
    );
  });

  it("make a first step with a 4-character id and put the fields in it", () => {
    const on = setMultiStep({ ...empty, fields: [field("a"), field("b")] }, true);
    expect(on.ok).toBe(true);
    if (!on.ok) return;
    const [step] = on.value.inputSteps ?? [];
    expect(step.id).toHaveLength(STEP_ID_LENGTH);
    expect(on.value.fields?.map((f) => f.stepId)).toEqual([step.id, step.id]);
  });

  it("move a removed step's fields to the step before, and keep the last step", () => {
    const value: FieldsValue = {
      fields: [field("a", { stepId: "aaaa" }), field("b", { stepId: "bbbb" })],
      inputSteps: [
        { id: "aaaa", title: "One" },
        { id: "bbbb", title: "Two" },
      ],
      isMultiStepInput: true,
      gptPrompt: "",
    };
    const removed = removeStep(value, "bbbb");
    expect(removed.ok && removed.value.fields?.map((f) => f.stepId)).toEqual(["aaaa", "aaaa"]);
    const only = removeStep({ ...value, inputSteps: [value.inputSteps[0]] }, "aaaa");
    expect(!only.ok && only.error.key).toBe("stepKeepOne");
  });

  it("show a field without a known step in the first step", () => {
    const steps = [{ id: "aaaa", title: "" }];
    expect(stepOf({ stepId: null }, steps)).toBe("aaaa");
    expect(stepOf({ stepId: "zzzz" }, steps)).toBe("aaaa");
    expect(stepOf({ stepId: null }, [])).toBeNull();
  });
});
