import { type NewDemoRun, replaceDemoRuns, upsertDemoEndUsers } from "../db/queries/analytics";
import type { App, RunContext } from "../db/schema";
import { runCost } from "../lib/ai/prices";
import { addDays, todayUtc } from "../lib/analytics/range";
import { groundingFor } from "../lib/runs/grounding";
import { DEMO_IDS } from "./seed-apps";

// Demo runs for npm run db:seed, so /analytics/app/{appId} has something to show:
// a few hundred runs of the Demo App and of Kitchen Helpers' two active tools over the last 30 UTC
// days, flagged is_demo, by demo end users who signed up over those weeks and by visitors; mostly
// successes, some errors, cancels and aborts; tokens and costs as gpt-4o-mini would bill them.
// Each run keeps the data its model would have been given (the excerpts of the app's data sources
// its question finds today: the Demo App's, seeded before; Kitchen Helpers has none), so a run
// opened on the analytics page shows them. Reproducible (a seeded generator), and idempotent: every run replaces the apps' demo runs with
// a fresh set ending now, so the charts always cover the last days; their users are found again by
// address.

const DAYS = 30;
const DAY_MS = 86_400_000;
const MODEL = "gpt-4o-mini";

/** mulberry32: a small seeded generator, so every seed writes the same story. */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = ReturnType<typeof generator>;
const pick = <T>(rand: Rand, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const between = (rand: Rand, lo: number, hi: number) => Math.round(lo + rand() * (hi - lo));

type Ask = { inputs: Record<string, unknown>; output: string };
type ToolPlan = { toolId: string | null; weight: number; asks: Ask[] };

const DEMO_APP_ASKS: Ask[] = [
  {
    inputs: { input: "How long does delivery take to Germany?" },
    output:
      "Standard delivery within the EU takes 3 to 5 working days. Order before 2 pm for next-day express.",
  },
  {
    inputs: { input: "Can I return a tent I used once?" },
    output:
      "Returns are for unused items within 30 days. A used tent is covered by the 5-year warranty if it is faulty.",
  },
  {
    inputs: { input: "Which sleeping bag for -5 °C nights?" },
    output:
      "Pick a comfort rating 5 degrees below your coldest night: the Down 0 sleeping bag with the Summer Liner.",
  },
  {
    inputs: { input: "Is shipping free?" },
    output: "Shipping is free on orders over 60 EUR; below that standard shipping is 4.90 EUR.",
  },
  {
    inputs: { input: "Lightest tent for a solo hike" },
    output: "The Ultralight 1 tent weighs 890 g and pitches with trekking poles.",
  },
  {
    inputs: { input: "When will my refund arrive?" },
    output: "Within 5 working days of your return reaching our warehouse, to your original payment method.",
  },
];

const MEAL_ASKS: Ask[] = [
  {
    inputs: { input: "No mushrooms", diet: "Vegetarian", people: "2" },
    output:
      "Mon: lentil curry. Tue: spinach gnocchi. Wed: bean chilli. Thu: halloumi wraps. Fri: pizza night...",
  },
  {
    inputs: { input: "Quick dinners under 30 minutes", diet: "Anything", people: "4" },
    output:
      "Mon: chicken stir-fry. Tue: salmon tacos. Wed: pesto pasta. Thu: egg fried rice. Fri: steak salad...",
  },
  {
    inputs: { input: "", diet: "Vegan", people: "3" },
    output: "Mon: chickpea stew. Tue: tofu pad thai. Wed: black bean burgers. Thu: dal with rice...",
  },
];

const GROCERY_ASKS: Ask[] = [
  {
    inputs: { input: "Lentil curry, spinach gnocchi, bean chilli", store: "Any supermarket" },
    output:
      "Produce: spinach, onions, garlic, chillies. Dry goods: red lentils, kidney beans. Chilled: gnocchi...",
  },
  {
    inputs: { input: "Chicken stir-fry and salmon tacos", store: "Lidl" },
    output:
      "Meat and fish: chicken thighs, salmon fillets. Produce: peppers, limes, coriander. Bakery: tortillas...",
  },
];

type AppPlan = { appId: string; runs: number; seed: number; users: number; tools: ToolPlan[] };

function plans(demoApp: App): AppPlan[] {
  return [
    {
      appId: demoApp.id,
      runs: 320,
      seed: 42,
      users: 24,
      tools: [{ toolId: null, weight: 1, asks: DEMO_APP_ASKS }],
    },
    {
      appId: DEMO_IDS.kitchen,
      runs: 160,
      seed: 7,
      users: 10,
      tools: [
        { toolId: DEMO_IDS.mealPlanner, weight: 0.65, asks: MEAL_ASKS },
        { toolId: DEMO_IDS.groceryList, weight: 0.35, asks: GROCERY_ASKS },
      ],
    },
  ];
}

/**
 * A moment of day `daysAgo` (0 = today, UTC), busier in the afternoon; never later than now. More
 * runs fall on recent days: the app is catching on.
 */
function momentOf(rand: Rand, now: Date): Date {
  const daysAgo = Math.floor(DAYS * rand() ** 1.6);
  const dayStart = Date.parse(`${addDays(todayUtc(now), -daysAgo)}T00:00:00Z`);
  const hour = Math.min(23.99, Math.max(0, 14 + (rand() + rand() + rand() - 1.5) * 8));
  return new Date(Math.min(now.getTime() - between(rand, 60_000, 600_000), dayStart + hour * 3_600_000));
}

async function appRuns(plan: AppPlan, now: Date): Promise<NewDemoRun[]> {
  const rand = generator(plan.seed);
  const people = Array.from({ length: plan.users }, (_, i) => {
    const n = String(i + 1).padStart(2, "0");
    return {
      email: `demo-user-${n}@example.com`,
      name: `Demo user ${n}`,
      // Sign-ups spread over the period, a few before it.
      createdAt: new Date(now.getTime() - rand() * (DAYS + 5) * DAY_MS),
    };
  });
  const userIds = await upsertDemoEndUsers(plan.appId, people);
  const visitors = Array.from(
    { length: Math.ceil(plan.users / 2) },
    (_, i) => `visitor:demo-${plan.seed}-${i}`,
  );

  // One search per question, by the default query method, as a run would make it.
  const contexts = new Map<Ask, RunContext>();
  for (const ask of plan.tools.flatMap((t) => t.asks)) {
    const inputs = Object.fromEntries(Object.entries(ask.inputs).map(([k, v]) => [k, String(v)]));
    contexts.set(ask, (await groundingFor(plan.appId, { aiQueryMethod: "default" }, [], inputs)).context);
  }

  const runs: NewDemoRun[] = [];
  for (let i = 0; i < plan.runs; i++) {
    const createdAt = momentOf(rand, now);
    let tool = plan.tools[0]!;
    for (let r = rand(), k = 0; k < plan.tools.length; k++) {
      r -= plan.tools[k]!.weight;
      if (r <= 0) {
        tool = plan.tools[k]!;
        break;
      }
    }
    const ask = pick(rand, tool.asks);
    // An end user who had signed up by then (two runs in three), else a visitor.
    const signedUp = people.map((p, j) => ({ p, id: userIds[j]! })).filter((x) => x.p.createdAt < createdAt);
    const user = signedUp.length && rand() < 0.66 ? pick(rand, signedUp) : null;
    const r = rand();
    const status = r < 0.88 ? "success" : r < 0.94 ? "error" : r < 0.98 ? "cancelled" : "aborted";
    const answered = status !== "error";
    const promptTokens = answered ? between(rand, 180, 900) : null;
    const fullOutput = between(rand, 60, 520);
    const completionTokens = answered
      ? status === "success"
        ? fullOutput
        : Math.round(fullOutput / 3)
      : null;
    const output =
      status === "success"
        ? ask.output
        : status === "error"
          ? ""
          : ask.output.slice(0, Math.ceil(ask.output.length / 3));
    const durationMs = status === "aborted" ? 120_000 : between(rand, 900, 9000);
    runs.push({
      appId: plan.appId,
      toolId: tool.toolId,
      kind: user ? "end_user" : "visitor",
      userId: user?.id ?? null,
      subject: user ? `user:${user.id}` : pick(rand, visitors),
      inputs: ask.inputs,
      output,
      model: MODEL,
      promptTokens,
      completionTokens,
      ...runCost(MODEL, { promptTokens, completionTokens }),
      credits: output ? 1 : 0,
      status,
      error:
        status === "error"
          ? "The model provider answered 500 Internal Server Error"
          : status === "aborted"
            ? "The run took longer than 120 s"
            : null,
      durationMs,
      context: contexts.get(ask)!,
      createdAt,
      finishedAt: new Date(createdAt.getTime() + durationMs),
    });
  }
  return runs;
}

/** Writes the demo runs; answers a line for the seed's summary. */
export async function seedDemoRuns(demoApp: App, now: Date = new Date()): Promise<string> {
  const all = plans(demoApp);
  const runs: NewDemoRun[] = [];
  for (const plan of all) runs.push(...(await appRuns(plan, now)));
  await replaceDemoRuns(
    all.map((p) => p.appId),
    runs,
  );
  return `Analytics: ${runs.length} demo runs over the last ${DAYS} days at /analytics/app/${demoApp.id} and /analytics/app/${DEMO_IDS.kitchen}`;
}
