import { upsertDemoApp, upsertDemoRecords, upsertDemoTool } from "../db/queries/apps";
import { findUploadByKey, listAppUploadKeys } from "../db/queries/uploads";
import type { App } from "../db/schema";
import { AppContent, AppSettings, type CustomField, ToolContent } from "../lib/apps/schemas";
import { presetStyle } from "../lib/apps/style-presets";
import { fileUrl, uploadImage, uploadKey } from "../lib/uploads/upload-image";

// Demo apps for npm run db:seed: one of each kind with every panel filled, owned by the admin.
// Fixed ids, written whole on every run, so seeding twice changes nothing and a demo that was
// edited by hand is put back.

export const DEMO_IDS = {
  tripPlanner: "5eed0000-0000-4000-8000-000000000001",
  kitchen: "5eed0000-0000-4000-8000-000000000002",
  wiki: "5eed0000-0000-4000-8000-000000000003",
  taskBoard: "5eed0000-0000-4000-8000-000000000004",
  productCatalog: "5eed0000-0000-4000-8000-000000000005",
  orderStats: "5eed0000-0000-4000-8000-000000000006",
  mealPlanner: "5eed0000-0000-4000-8000-000000000101",
  groceryList: "5eed0000-0000-4000-8000-000000000102",
  recipeRewriter: "5eed0000-0000-4000-8000-000000000103",
} as const;

const field = (f: Partial<CustomField> & Pick<CustomField, "name" | "label" | "type">): CustomField => ({
  required: false,
  personal: false,
  memorize: false,
  stepId: null,
  instructions: "",
  options: [],
  filterCondition: "none",
  placeholder: "",
  ...f,
});

const options = (...labels: string[]) => labels.map((label) => ({ label, iconUrl: null }));

/** A logo drawn here, so the demo needs no file: a rounded square with two letters. */
function logoSvg(letters: string, background: string, color: string): Uint8Array {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128"><rect width="128" height="128" rx="28" fill="${background}"/><text x="64" y="82" font-family="Arial, sans-serif" font-size="52" font-weight="700" text-anchor="middle" fill="${color}">${letters}</text></svg>`;
  return new TextEncoder().encode(svg);
}

/** The logo's URL, uploaded through the product's own upload path the first time; reused after. */
async function demoLogo(app: App, letters: string, background: string, color: string): Promise<string> {
  const logoFolder = `${uploadKey(app, "logo", "x", "svg").split("/").slice(0, -1).join("/")}/`;
  const existing = (await listAppUploadKeys(app.id)).find((key) => key.startsWith(logoFolder));
  const upload = existing ? await findUploadByKey(existing) : undefined;
  if (upload) return fileUrl(upload);
  return (await uploadImage(app, { kind: "logo" }, logoSvg(letters, background, color))).file_url;
}

async function seedTripPlanner(owner: string) {
  const content = AppContent.parse({
    header: "Trip Planner",
    description: "A day-by-day plan for your next trip, fitted to your budget and pace.",
    inputLabel: "Where are you going?",
    inputPlaceholder: "Lisbon in May",
    examples: ["A long weekend in Lisbon", "Ten days in Japan with kids", "A cheap week in Mexico City"],
    welcomeMessage: "Tell us where you're headed and we'll plan every day.",
    isMultiStepInput: true,
    inputSteps: [
      { id: "trip", title: "Your trip" },
      { id: "pref", title: "Your style" },
    ],
    fields: [
      field({
        name: "days",
        label: "How many days?",
        type: "text",
        required: true,
        stepId: "trip",
        placeholder: "5",
      }),
      field({
        name: "budget",
        label: "Budget",
        type: "select",
        stepId: "trip",
        options: options("Shoestring", "Comfortable", "Luxury"),
      }),
      field({
        name: "interests",
        label: "Interests",
        type: "multiselect",
        stepId: "pref",
        options: options("Food", "Museums", "Hiking", "Nightlife", "Beaches"),
      }),
      field({ name: "email", label: "Email for your plan", type: "email", personal: true, stepId: "pref" }),
    ],
    gptPrompt:
      "You are a travel planner. Plan a trip of [days] days with a [budget] budget for someone who loves [interests]. Give a short plan for each day with one tip.",
    ctaMessage: "Want a guide on the ground?",
    ctaButton: "Book a local guide",
    ctaLink: "https://example.com/guides",
    resultsLayout: "cards",
  });
  await upsertDemoApp({
    id: DEMO_IDS.tripPlanner,
    ownerAccountId: owner,
    type: "tool",
    status: "active",
    header: content.header,
    content,
  });
  const app = { id: DEMO_IDS.tripPlanner, ownerAccountId: owner } as App;
  const logoUrl = await demoLogo(app, "TP", "#0B5D4B", "#FFFFFF");
  await upsertDemoRecords(
    app.id,
    { ...presetStyle("colorful"), logoUrl },
    AppSettings.parse({
      aiModel: "gpt-4o-mini",
      modelTemperature: 0.7,
      dailyUserLimit: 10,
      weeklyUserLimit: 50,
      creditsPerRun: 1,
      termsOfServiceLink: "https://example.com/terms",
      privacyPolicyLink: "https://example.com/privacy",
      supportEmail: "support@example.com",
      isClaimable: true,
    }),
  );
}

async function seedKitchen(owner: string) {
  const content = AppContent.parse({
    header: "Kitchen Helpers",
    description:
      "Three small tools for the week's cooking: plan meals, write the grocery list, rewrite a recipe.",
    welcomeMessage: "Pick a tool to get started.",
    ctaMessage: "Cooking for a crowd?",
    ctaButton: "Talk to our chef",
    ctaLink: "https://example.com/chef",
  });
  await upsertDemoApp({
    id: DEMO_IDS.kitchen,
    ownerAccountId: owner,
    type: "generated",
    status: "active",
    header: content.header,
    content,
  });
  const app = { id: DEMO_IDS.kitchen, ownerAccountId: owner } as App;
  const tools = [
    {
      id: DEMO_IDS.mealPlanner,
      title: "Meal Planner",
      path: "meal-planner",
      status: "active" as const,
      content: {
        description: "A week of dinners that fit your diet.",
        inputLabel: "Anything to avoid?",
        examples: ["No mushrooms", "Quick dinners under 30 minutes"],
        fields: [
          field({
            name: "diet",
            label: "Diet",
            type: "select",
            options: options("Anything", "Vegetarian", "Vegan"),
          }),
          field({ name: "people", label: "People", type: "text", placeholder: "2" }),
        ],
        gptPrompt: "Plan seven [diet] dinners for [people] people.",
      },
    },
    {
      id: DEMO_IDS.groceryList,
      title: "Grocery List",
      path: "grocery-list",
      status: "active" as const,
      content: {
        description: "Turns a meal plan into a list by aisle.",
        inputLabel: "Paste your meal plan",
        fields: [field({ name: "store", label: "Store", type: "text", placeholder: "Any supermarket" })],
        gptPrompt: "Write a grocery list by aisle for this plan, for shopping at [store].",
      },
    },
    {
      id: DEMO_IDS.recipeRewriter,
      title: "Recipe Rewriter",
      path: "recipe-rewriter",
      status: "draft" as const,
      content: {
        description: "Rewrites a recipe for another diet or serving size.",
        fields: [field({ name: "servings", label: "Servings", type: "text" })],
        gptPrompt: "Rewrite the recipe for [servings] servings.",
      },
    },
  ];
  for (const [position, t] of tools.entries()) {
    const toolContent = ToolContent.parse({ header: t.title, ...t.content });
    await upsertDemoTool({
      id: t.id,
      appId: app.id,
      title: t.title,
      path: t.path,
      status: t.status,
      position,
      content: toolContent,
    });
  }
  const logoUrl = await demoLogo(app, "KH", "#F4B942", "#1A1A1A");
  await upsertDemoRecords(
    app.id,
    { ...presetStyle("dark"), logoUrl, buttonBackgroundColor: "#F4B942", buttonTextColor: "#000000" },
    AppSettings.parse({ mainPage: "tools", dailyUserLimit: 20, supportEmail: "kitchen@example.com" }),
  );
}

async function seedWiki(owner: string) {
  const content = AppContent.parse({
    header: "Team Wiki",
    description: "A chat-style app where the team asks questions and keeps answers in its own database.",
    welcomeMessage: "Ask me anything about how the team works.",
  });
  await upsertDemoApp({
    id: DEMO_IDS.wiki,
    ownerAccountId: owner,
    type: "space",
    status: "draft",
    header: content.header,
    content,
  });
  await upsertDemoRecords(DEMO_IDS.wiki, presetStyle("light"), AppSettings.parse({ mainPage: "chat" }));
}

/** Seeds the three demo apps; their public URLs, for the seed's summary. */
export async function seedDemoApps(ownerAccountId: string) {
  await seedTripPlanner(ownerAccountId);
  await seedKitchen(ownerAccountId);
  await seedWiki(ownerAccountId);
  return [
    `Trip Planner (single-tool app): /app/${DEMO_IDS.tripPlanner}`,
    `Kitchen Helpers (generated app, 3 tools): /app/${DEMO_IDS.kitchen}`,
    `Team Wiki (space app, not published): /build/app/${DEMO_IDS.wiki}`,
  ];
}
