import { findAppById } from "../db/queries/apps";
import { countEntityRecords, insertEntityRecords } from "../db/queries/entity-records";
import { countVersions } from "../db/queries/space-versions";
import { finishAnswer, startExchange } from "../lib/space/chat";
import type { FileChange } from "../lib/space/schemas";
import { DEMO_IDS } from "./seed-apps";

// The Team Wiki demo space app's conversation for npm run db:seed: two requests, two answers that
// each made a version (a tiny wiki page), so a new builder can open the chat, preview a version
// and restore it without a model configured. Written through the chat's own services
// (lib/space/chat.ts), once: an app that has versions already is left as it is.

const layout = `export default function Layout({ children }) {
  return (
    <div className="min-h-screen bg-white text-slate-900">
      <header className="border-b px-6 py-4 font-semibold">Team Wiki</header>
      <main className="mx-auto max-w-3xl p-6">{children}</main>
    </div>
  );
}
`;

const home = `import PageList from "../components/PageList";

export default function Home() {
  return (
    <section>
      <h1 className="text-2xl font-bold">How we work</h1>
      <input className="mt-4 w-full rounded border px-3 py-2" placeholder="Search the wiki" />
      <PageList />
    </section>
  );
}
`;

const pageList = `const RECENT = ["Onboarding checklist", "Release process", "On-call handbook"];

export default function PageList() {
  return (
    <ul className="mt-6 space-y-2">
      {RECENT.map((title) => (
        <li key={title} className="rounded border px-3 py-2">{title}</li>
      ))}
    </ul>
  );
}
`;

const wikiPage = JSON.stringify(
  {
    name: "WikiPage",
    type: "object",
    properties: {
      title: { type: "string" },
      body: { type: "string" },
      tags: { type: "array", items: { type: "string" } },
    },
    required: ["title"],
    "x-accessControl": { permissions: { read: "all", write: "creator" } },
  },
  null,
  2,
);

const about = `export default function About() {
  return (
    <section>
      <h1 className="text-2xl font-bold">About this wiki</h1>
      <p className="mt-4">Everything the team knows, kept in one place and answered by chat.</p>
    </section>
  );
}
`;

type Turn = { user: string; answer: string; changes: FileChange[]; titles: string[] };

const TURNS: Turn[] = [
  {
    user: "Make a home page for the team wiki with a search box and a list of recent pages.",
    answer:
      "I made the home page: a header with the wiki's name, a search box and the list of recent pages, and a WikiPage entity to keep the pages in.",
    changes: [
      { type: "add_file", path: "Layout.jsx", content: layout },
      { type: "add_file", path: "pages/Home.jsx", content: home },
      { type: "add_file", path: "components/PageList.jsx", content: pageList },
      { type: "add_entity", name: "WikiPage", content: wikiPage },
    ],
    titles: ["Create the layout", "Create the home page", "Create the page list", "Add the WikiPage entity"],
  },
  {
    user: "Add an About page and link it from the header.",
    answer: "I added an About page and a link to it in the header.",
    changes: [
      { type: "add_file", path: "pages/About.jsx", content: about },
      {
        type: "partial_edit",
        path: "Layout.jsx",
        edits: [
          {
            find: '<header className="border-b px-6 py-4 font-semibold">Team Wiki</header>',
            replace:
              '<header className="flex justify-between border-b px-6 py-4 font-semibold">\n        Team Wiki <a href="/about" className="font-normal underline">About</a>\n      </header>',
          },
        ],
      },
    ],
    titles: ["Create the About page", "Link About from the header"],
  },
];

/** The chat actions shown on an answer (title, type, file, content, isComplete, isTruncated). */
function actionsOf(turn: Turn) {
  return turn.changes.map((c, i) => ({
    title: turn.titles[i],
    type: c.type,
    file: "path" in c ? c.path : `entities/${c.name}.json`,
    content: "content" in c ? c.content : c.type === "partial_edit" ? JSON.stringify(c.edits) : "",
    isComplete: true,
    isTruncated: false,
  }));
}

const WIKI_PAGES = [
  { title: "Onboarding", body: "Your first week: accounts, tools and who to ask.", tags: ["people"] },
  { title: "Release checklist", body: "Tests green, notes written, tag pushed.", tags: ["engineering"] },
  {
    title: "Holiday policy",
    body: "25 days a year, booked in the team calendar.",
    tags: ["people", "policy"],
  },
];

export async function seedSpaceConversation(ownerAccountId: string, ownerUserId: string): Promise<string> {
  const app = await findAppById(DEMO_IDS.wiki);
  if (!app) throw new Error("seed the demo apps first (scripts/seed-apps.ts)");
  if ((await countVersions(app.id)) === 0) {
    for (const turn of TURNS) {
      const started = await startExchange(app, ownerAccountId, { user: { content: turn.user } });
      await finishAnswer(app, ownerAccountId, started.answer.id, {
        status: "complete",
        content: turn.answer,
        actions: actionsOf(turn),
        changes: turn.changes,
        userRequest: turn.user,
        description: turn.titles.join(", "),
      });
    }
  }
  // A few pages in the WikiPage entity, for the Database panel (as the chat's
  // insert_entity_records would store them).
  if ((await countEntityRecords(app.id, "WikiPage")) === 0) {
    for (const page of WIKI_PAGES) {
      await insertEntityRecords(app.id, "WikiPage", [{ creatorId: ownerUserId, data: page }]);
    }
  }
  return (
    `Team Wiki chat: ${TURNS.length} requests, ${await countVersions(app.id)} versions, ` +
    `${await countEntityRecords(app.id, "WikiPage")} WikiPage records: /build/app/${app.id}`
  );
}
