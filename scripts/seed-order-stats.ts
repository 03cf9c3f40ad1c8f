import { findAppById, upsertDemoApp, upsertDemoRecords } from "../db/queries/apps";
import { countVersions } from "../db/queries/space-versions";
import { AppContent, AppSettings } from "../lib/apps/schemas";
import { presetStyle } from "../lib/apps/style-presets";
import { finishAnswer, startExchange } from "../lib/space/chat";
import type { FileChange } from "../lib/space/schemas";
import { DEMO_IDS } from "./seed-apps";

// The Order stats demo space app for npm run db:seed: two answers, the second of which broke the
// page (it uses `totl`, a name it never declared), so a new builder sees the preview's error and,
// as an admin, can Validate the version, Try Repair with the local model (npm run ai:dev fixes a
// misspelt name) and Apply it, or compare version 1 with the current files and merge it back.
// Written through the chat's own services, once: an app that has versions is left as it is.

const ORDERS = `const ORDERS = [
  { id: "A-1001", customer: "Ada", amount: 42 },
  { id: "A-1002", customer: "Grace", amount: 18.5 },
  { id: "A-1003", customer: "Linus", amount: 64 },
];
`;

const list = `      <ul className="mt-4 space-y-2">
        {ORDERS.map((o) => (
          <li key={o.id} className="flex justify-between rounded border px-3 py-2">
            <span>{o.customer}</span>
            <span>{o.amount.toFixed(2)} €</span>
          </li>
        ))}
      </ul>`;

export const ORDER_STATS_FIRST = `${ORDERS}
export default function Home() {
  return (
    <main className="p-6">
      <h1 className="text-2xl font-bold">Orders</h1>
${list}
    </main>
  );
}
`;

/** The second answer's page: the total is computed as \`total\` and shown as \`totl\`. */
export const ORDER_STATS_BROKEN = `${ORDERS}
export default function Home() {
  const total = ORDERS.reduce((sum, o) => sum + o.amount, 0);
  return (
    <main className="p-6">
      <h1 className="text-2xl font-bold">Orders</h1>
${list}
      <p className="mt-4 font-semibold">Total: {totl.toFixed(2)} €</p>
    </main>
  );
}
`;

const TURNS: { user: string; answer: string; change: FileChange; title: string }[] = [
  {
    user: "Make a page listing our orders with their customer and amount.",
    answer: "I made the orders page: each order with its customer and amount.",
    change: { type: "add_file", path: "pages/Home.jsx", content: ORDER_STATS_FIRST },
    title: "Create the orders page",
  },
  {
    user: "Show the total of all orders under the list.",
    answer: "I added the total of all orders under the list.",
    change: { type: "edit_file", path: "pages/Home.jsx", content: ORDER_STATS_BROKEN },
    title: "Show the orders' total",
  },
];

export async function seedOrderStats(ownerAccountId: string): Promise<string> {
  const content = AppContent.parse({
    header: "Order stats",
    description: "A space app whose last answer broke its page: validate it and let the model repair it.",
    welcomeMessage: "Ask for a change to the orders page.",
  });
  const id = DEMO_IDS.orderStats;
  await upsertDemoApp({
    id,
    ownerAccountId,
    type: "space",
    status: (await findAppById(id))?.status ?? "draft",
    header: content.header,
    content,
  });
  await upsertDemoRecords(id, presetStyle("light"), AppSettings.parse({ mainPage: "chat" }));
  const app = (await findAppById(id))!;
  if ((await countVersions(id)) === 0) {
    for (const turn of TURNS) {
      const started = await startExchange(app, ownerAccountId, { user: { content: turn.user } });
      await finishAnswer(app, ownerAccountId, started.answer.id, {
        status: "complete",
        content: turn.answer,
        actions: [
          {
            title: turn.title,
            type: turn.change.type,
            file: "pages/Home.jsx",
            content: "content" in turn.change ? turn.change.content : "",
            isComplete: true,
            isTruncated: false,
          },
        ],
        changes: [turn.change],
        userRequest: turn.user,
        description: turn.title,
      });
    }
  }
  return `Order stats (space app whose last version has a bug to validate and repair): /build/app/${id}`;
}
