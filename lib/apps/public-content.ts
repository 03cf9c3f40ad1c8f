import type { AppContent, AppStyle, CustomField, ToolContent } from "./schemas";

// What a public page (/app/{appId}, /app/{appId}/tool/{toolPath}, /tool/{path}) hands to its
// client components: an allow-list of what the page draws and what its form checks in the
// browser. Whatever a client component receives ends up in the HTML and the RSC payload, so the
// builder's recipe (the instructions `gptPrompt` and `blocks`, each field's instructions and
// filter, which fields are personal, features, chat settings, background notes...) never goes
// there: runs read it on the server (lib/runs). A key added to the stored content stays
// private until it is named here.

/** A field as its form draws and checks it: no instructions, no filter, not whether it is personal. */
export type PublicField = Pick<
  CustomField,
  "name" | "label" | "type" | "required" | "memorize" | "stepId" | "options" | "placeholder"
>;

/** The texts, form and call to action of a public page. */
export type PublicContent = Pick<
  AppContent,
  | "header"
  | "description"
  | "isMultiStepInput"
  | "inputSteps"
  | "examples"
  | "inputLabel"
  | "inputPlaceholder"
  | "isInputHidden"
  | "isInputCollapsed"
  | "welcomeMessage"
  | "ctaMessage"
  | "ctaButton"
  | "ctaLink"
  | "resultsLayout"
> & { fields: PublicField[] };

/** The look of a public page; whether the watermark shows is decided on the server (watermarkHidden). */
export type PublicStyle = Omit<AppStyle, "hideBuildAI">;

function publicField(f: PublicField): PublicField {
  return {
    name: f.name,
    label: f.label,
    type: f.type,
    required: f.required,
    memorize: f.memorize,
    stepId: f.stepId,
    options: f.options.map((o) => ({ label: o.label, iconUrl: o.iconUrl })),
    placeholder: f.placeholder,
  };
}

/** The public part of an app's (or a tool's) saved content, key by key. */
export function publicContentOf(content: PublicContent | AppContent | ToolContent): PublicContent {
  return {
    header: content.header,
    description: content.description,
    fields: content.fields.map(publicField),
    isMultiStepInput: content.isMultiStepInput,
    inputSteps: content.inputSteps.map((s) => ({ id: s.id, title: s.title })),
    examples: [...content.examples],
    inputLabel: content.inputLabel,
    inputPlaceholder: content.inputPlaceholder,
    isInputHidden: content.isInputHidden,
    isInputCollapsed: content.isInputCollapsed,
    welcomeMessage: content.welcomeMessage,
    ctaMessage: content.ctaMessage,
    ctaButton: content.ctaButton,
    ctaLink: content.ctaLink,
    resultsLayout: content.resultsLayout,
  };
}

/** The style as the page draws it. */
export function publicStyleOf(style: AppStyle): PublicStyle {
  return {
    styleName: style.styleName,
    background: style.background,
    backgroundImage: style.backgroundImage,
    logoUrl: style.logoUrl,
    headerTextColor: style.headerTextColor,
    subheaderTextColor: style.subheaderTextColor,
    buttonTextColor: style.buttonTextColor,
    buttonBackgroundColor: style.buttonBackgroundColor,
  };
}
