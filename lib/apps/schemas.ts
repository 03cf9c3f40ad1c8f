import { z } from "zod";
import {
  APP_BUILDER_VERSION,
  APP_TEXT_MAX,
  CUSTOM_DOMAIN_MAX,
  EXAMPLES_MAX,
  FIELD_INSTRUCTIONS_MAX,
  FIELD_LABEL_MAX,
  FIELD_NAME_MAX,
  FIELD_OPTIONS_MAX,
  FIELDS_HARD_MAX,
  INSTRUCTIONS_MAX,
  OPTION_LABEL_MAX,
  STEP_ID_LENGTH,
  TEMPLATE_CATEGORY_MAX,
  TOOL_PATH_MAX,
  URL_MAX,
} from "@/lib/constants";
import { PLAN_IDS } from "@/lib/plans/catalogue";
import { storableString } from "@/lib/storable-text";
import { safeHref, safeImageSrc } from "./safe-link";

// The shapes of an app's editable parts, shared by the routes (validation), the editor (types,
// inline checks) and the tests. Saved content is stored as jsonb and read back through these.

/**
 * The schema of a partial save: every key optional and, unlike zod's .partial(), no defaults
 * filled in, so a save changes only the keys it names. Unknown keys are refused.
 */
function patchOf<S extends z.ZodRawShape>(schema: z.ZodObject<S>) {
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([key, field]) => [
      key,
      ((field instanceof z.ZodDefault ? field.unwrap() : field) as z.ZodType).optional(),
    ]),
  );
  return z.object(shape).strict() as unknown as z.ZodType<Partial<z.infer<z.ZodObject<S>>>>;
}

const text = (max = APP_TEXT_MAX) => storableString().max(max);
/** A link a builder enters: empty, http(s), mailto or a same-site path; never javascript: or data:. */
const url = z
  .string()
  .max(URL_MAX)
  .refine((v) => v === "" || safeHref(v) !== null, { message: "Enter a web address or a path" });
/** An image's address: http(s) or a same-site path (our uploads are /api/files/...). */
const imageUrl = z
  .string()
  .max(URL_MAX)
  .refine((v) => safeImageSrc(v) !== null, { message: "Enter a web address or a path" });
const color = storableString().regex(/^#[0-9a-fA-F]{6}$/);

export const FIELD_TYPES = [
  "text",
  "long_text",
  "select",
  "multiselect",
  "email",
  "place",
  "photo",
  "height",
  "weight",
  "tool_item_select",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const FILTER_CONDITIONS = ["none", "include", "exclude"] as const;

/** "Option: label, iconUrl (nullable). Stored per field; draggable to reorder." */
export const FieldOption = z.object({
  label: storableString().max(OPTION_LABEL_MAX),
  iconUrl: imageUrl.nullable().default(null),
});
export type FieldOption = z.infer<typeof FieldOption>;

/** An input field of a tool. */
export const CustomField = z.object({
  name: storableString().min(1).max(FIELD_NAME_MAX),
  label: text(FIELD_LABEL_MAX).default(""),
  type: z.enum(FIELD_TYPES),
  required: z.boolean().default(false),
  personal: z.boolean().default(false),
  memorize: z.boolean().default(false),
  stepId: storableString().max(STEP_ID_LENGTH).nullable().default(null),
  instructions: text(FIELD_INSTRUCTIONS_MAX).default(""),
  options: z.array(FieldOption).max(FIELD_OPTIONS_MAX).default([]),
  filterCondition: z.enum(FILTER_CONDITIONS).default("none"),
  placeholder: text(FIELD_LABEL_MAX).default(""),
});
export type CustomField = z.infer<typeof CustomField>;

/** "Input step: id (4-character generated when missing), title." */
export const InputStep = z.object({
  id: storableString().length(STEP_ID_LENGTH),
  title: text(FIELD_LABEL_MAX).default(""),
});
export type InputStep = z.infer<typeof InputStep>;

export const RESULTS_LAYOUTS = ["text", "cards", "list"] as const;

/** One instruction block; `blocks` are built from gptPrompt when empty. */
export const Block = z.object({ type: z.literal("instructions"), text: text(INSTRUCTIONS_MAX) });

/**
 * "App-level saved fields". A generated app's tools carry the same texts, fields and
 * instructions in their own content.
 */
export const AppContent = z.object({
  header: text().default(""),
  description: text().default(""),
  fields: z.array(CustomField).max(FIELDS_HARD_MAX).default([]),
  isMultiStepInput: z.boolean().default(false),
  inputSteps: z.array(InputStep).max(FIELDS_HARD_MAX).default([]),
  examples: z.array(text()).max(EXAMPLES_MAX).default([]),
  inputLabel: text().default(""),
  inputPlaceholder: text().default(""),
  isInputHidden: z.boolean().default(false),
  isInputCollapsed: z.boolean().default(false),
  welcomeMessage: text().default(""),
  ctaMessage: text().default(""),
  ctaButton: text().default(""),
  ctaLink: url.default(""),
  resultsLayout: z.enum(RESULTS_LAYOUTS).default("text"),
  gptPrompt: text(INSTRUCTIONS_MAX).default(""),
  blocks: z.array(Block).max(50).default([]),
  features: z.array(text()).max(20).default([]),
  chatSettings: z
    .record(storableString(), z.union([storableString().max(APP_TEXT_MAX), z.boolean(), z.number()]))
    .default({}),
  background: text().default(""),
  appBuilderVersion: z.literal(APP_BUILDER_VERSION).default(APP_BUILDER_VERSION),
});
export type AppContent = z.infer<typeof AppContent>;

/** A save sends only what changed: "partial objects of app fields". */
export const AppContentPatch = patchOf(AppContent);
export type AppContentPatch = z.infer<typeof AppContentPatch>;

export const STYLE_NAMES = ["dark", "colorful", "light"] as const;
export type StyleName = (typeof STYLE_NAMES)[number];

/** App style. hideBuildAI unset means the plan's default. */
export const AppStyle = z.object({
  styleName: z.enum(STYLE_NAMES).default("light"),
  background: color.default("#FFFFFF"),
  backgroundImage: imageUrl.nullable().default(null),
  logoUrl: imageUrl.nullable().default(null),
  headerTextColor: color.default("#000000"),
  subheaderTextColor: color.default("#000000"),
  buttonTextColor: color.default("#FFFFFF"),
  buttonBackgroundColor: color.default("#000000"),
  hideBuildAI: z.boolean().nullable().default(null),
});
export type AppStyle = z.infer<typeof AppStyle>;

export const QUERY_METHODS = ["default", "smart_items_filtering"] as const;
export const MAIN_PAGES = ["home", "tools", "chat"] as const;

/** Tool settings and app settings, one record per app. */
export const AppSettings = z.object({
  aiModel: storableString().min(1).max(200).nullable().default(null),
  modelTemperature: z.number().min(0).max(2).multipleOf(0.1).default(0.7),
  aiQueryMethod: z.enum(QUERY_METHODS).default("default"),
  dailyUserLimit: z.number().int().min(1).max(100).nullable().default(null),
  weeklyUserLimit: z.number().int().min(1).max(100).nullable().default(null),
  creditsPerRun: z.number().int().min(0).max(20).default(1),
  isClaimable: z.boolean().default(false),
  isToolTemplate: z.boolean().default(false),
  templateCategory: storableString().max(TEMPLATE_CATEGORY_MAX).nullable().default(null),
  templateCategories: z.array(storableString().min(1).max(TEMPLATE_CATEGORY_MAX)).max(50).default([]),
  isProTool: z.boolean().default(false),
  templateImageUrl: imageUrl.nullable().default(null),
  templateDescription: text().default(""),
  userCanEditResults: z.boolean().default(false),
  isSignupEnabled: z.boolean().default(false),
  customDomain: storableString().max(CUSTOM_DOMAIN_MAX).default(""),
  termsOfServiceLink: url.default(""),
  privacyPolicyLink: url.default(""),
  supportEmail: z.union([z.email().max(254), z.literal("")]).default(""),
  isPaidMembershipsEnabled: z.boolean().default(false),
  mainPage: z.enum(MAIN_PAGES).default("home"),
  isAppTemplate: z.boolean().default(false),
  requireBuilderCollaboratorAccount: z.boolean().default(false),
});
export type AppSettings = z.infer<typeof AppSettings>;

/** "Tool path: letters, numbers and dashes only, not empty". */
export const TOOL_PATH = /^[A-Za-z0-9-]+$/;

export const ToolContent = AppContent.omit({ appBuilderVersion: true, features: true, chatSettings: true });
export type ToolContent = z.infer<typeof ToolContent>;

// ---- request bodies ----

export const APP_TYPES = ["tool", "generated", "space"] as const;
export type AppType = (typeof APP_TYPES)[number];

export const AppIdParams = z.object({ appId: z.uuid() });
export const ToolParams = z.object({ appId: z.uuid(), toolId: z.uuid() });

/**
 * POST /api/apps: appType, genApp or app with appBuilderVersion, appId. The client
 * makes the id, so a retried create makes one app.
 */
export const CreateAppBody = z
  .object({
    appId: z.uuid(),
    appType: z.enum(APP_TYPES),
    app: AppContentPatch.optional(),
    genApp: AppContentPatch.optional(),
  })
  .refine(
    (b) =>
      (b.app?.appBuilderVersion ?? b.genApp?.appBuilderVersion ?? APP_BUILDER_VERSION) ===
      APP_BUILDER_VERSION,
  )
  .meta({
    examples: [
      {
        appId: "3f2b8c1e-6d4a-4b7e-9a1c-2e5f7d9b0c11",
        appType: "tool",
        app: { header: "My recipe helper", appBuilderVersion: 4 },
      },
    ],
  });
export type CreateAppBody = z.infer<typeof CreateAppBody>;

/** A save names the revision it was based on; an older one is answered 409 with the current. */
export const SaveAppBody = z
  .object({
    baseRevision: z.number().int().min(1),
    app: AppContentPatch,
  })
  .meta({ examples: [{ baseRevision: 1, app: { header: "My recipe helper" } }] });
export type SaveAppBody = z.infer<typeof SaveAppBody>;

export const SaveStyleBody = z
  .object({
    baseRevision: z.number().int().min(0),
    appStyle: patchOf(AppStyle),
  })
  .meta({ examples: [{ baseRevision: 1, appStyle: { styleName: "dark" } }] });
export const SaveSettingsBody = z
  .object({
    baseRevision: z.number().int().min(0),
    appSettings: patchOf(AppSettings),
  })
  .meta({ examples: [{ baseRevision: 1, appSettings: { dailyUserLimit: 5 } }] });

export const PublishBody = z
  .object({ status: z.enum(["active", "draft"]) })
  .meta({ examples: [{ status: "active" }] });

export const CreateToolBody = z
  .object({
    title: text().default(""),
    path: storableString().max(TOOL_PATH_MAX),
  })
  .meta({ examples: [{ title: "Summarize a text", path: "summarize" }] });
export const SaveToolBody = z
  .object({
    baseRevision: z.number().int().min(1),
    tool: z
      .object({
        title: text(),
        path: storableString().max(TOOL_PATH_MAX),
        imageUrl: imageUrl.nullable(),
        status: z.enum(["active", "draft"]),
        content: patchOf(ToolContent),
      })
      .partial()
      .strict(),
  })
  .meta({ examples: [{ baseRevision: 1, tool: { title: "Summarize a text" } }] });
export const ReorderToolsBody = z.object({ toolIds: z.array(z.uuid()).max(FIELDS_HARD_MAX * 4) }).meta({
  examples: [{ toolIds: ["8a9d0e2f-1b3c-4d5e-8f7a-6b5c4d3e2f10", "3f2b8c1e-6d4a-4b7e-9a1c-2e5f7d9b0c11"] }],
});

export const ClaimBody = z
  .object({ claimCode: storableString().min(1).max(200) })
  .meta({ examples: [{ claimCode: "3f2b8c1e-6d4a-4b7e-9a1c-2e5f7d9b0c11.signature-of-the-invitation" }] });

// ---- answers (what the routes send, as the client receives it) ----

/** A moment as the answers write it: ISO 8601 in UTC (Date.toISOString). */
const isoTime = z.iso.datetime();
const APP_STATUSES = ["active", "draft"] as const;
const revision = z.number().int().min(0);

/** A tool of a generated app as the editor reads it: its content with defaults filled in. */
export const ToolAnswer = z.object({
  toolId: z.uuid(),
  title: z.string(),
  path: z.string(),
  imageUrl: z.string().nullable(),
  status: z.enum(APP_STATUSES),
  position: z.number().int(),
  revision,
  content: ToolContent,
  updatedAt: isoTime,
});
export type ToolAnswer = z.infer<typeof ToolAnswer>;

/** An app's own record: its content with defaults filled in ("blocks" built from gptPrompt when empty). */
export const AppAnswer = z.object({
  appId: z.uuid(),
  appType: z.enum(APP_TYPES),
  status: z.enum(APP_STATUSES),
  revision,
  app: AppContent,
  updatedAt: isoTime,
});
export type AppAnswer = z.infer<typeof AppAnswer>;

/** POST /api/apps: the app, and whether this call made it (false: a retry answering the first call's app). */
export const CreatedAppAnswer = AppAnswer.extend({ created: z.boolean() });
export type CreatedAppAnswer = z.infer<typeof CreatedAppAnswer>;

/** POST /api/apps/{appId}/style: the style saved and its revision (0: never saved). */
export const StyleAnswer = z.object({ revision, appStyle: AppStyle });
export type StyleAnswer = z.infer<typeof StyleAnswer>;
/** POST /api/apps/{appId}/settings: the settings saved and their revision (0: never saved). */
export const SettingsAnswer = z.object({ revision, appSettings: AppSettings });
export type SettingsAnswer = z.infer<typeof SettingsAnswer>;

/** GET /api/apps/{appId}: everything the editor shows. */
export const EditorAppAnswer = AppAnswer.extend({
  style: StyleAnswer,
  settings: SettingsAnswer,
  tools: z.array(ToolAnswer),
  /** The app owner's plan id, as stored (lib/plans/catalogue.ts PLAN_IDS; the free plan for none). */
  ownerPlan: z.string().describe(`The app owner's plan: ${PLAN_IDS.join(", ")}`),
  /** Whether the watermark shows on the public page: the style's switch, else the plan's default. */
  watermarkHidden: z.boolean(),
});
export type EditorAppAnswer = z.infer<typeof EditorAppAnswer>;

/** GET /api/apps: the builder's apps, last edited first. */
export const AppListAnswer = z.object({
  apps: z.array(
    z.object({
      appId: z.uuid(),
      header: z.string(),
      appType: z.enum(APP_TYPES),
      status: z.enum(APP_STATUSES),
      /** A generated app's tools; a single-tool app is its one tool; a space app has none. */
      toolsCount: z.number().int().min(0),
      updatedAt: isoTime,
    }),
  ),
});
export type AppListAnswer = z.infer<typeof AppListAnswer>;

/** PUT /api/apps/{appId}/tools/order: the tools in their new order. */
export const ToolListAnswer = z.object({ tools: z.array(ToolAnswer) });
export type ToolListAnswer = z.infer<typeof ToolListAnswer>;

/** GET /api/apps/{appId}/settings/claimInvitation */
export const ClaimInvitationAnswer = z.object({ inviteLink: z.url(), claimCode: z.string().min(1) });
export type ClaimInvitationAnswer = z.infer<typeof ClaimInvitationAnswer>;

/** POST /api/apps/claim: the app the caller now owns. */
export const ClaimedAppAnswer = z.object({ appId: z.uuid(), header: z.string() });
export type ClaimedAppAnswer = z.infer<typeof ClaimedAppAnswer>;
