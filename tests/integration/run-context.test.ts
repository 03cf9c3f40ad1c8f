import { eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import * as contextRoute from "@/app/api/apps/[appId]/runs/[runId]/context/route";
import { db } from "@/db/client";
import { findRun } from "@/db/queries/runs";
import { toolRuns } from "@/db/schema";
import { retrieveChunks } from "@/lib/context/retrieve";
import { messages } from "@/lib/messages";
import { retrievalQuery } from "@/lib/runs/prompt";
import { RUN_ID_HEADER, type RunContextAnswer } from "@/lib/runs/schemas";
import { syncedRowsItem, syncedTextItem } from "../support/context";
import { createBuilder, createEndUser } from "../support/factories";
import { call } from "../support/http";
import { openAiServerEnv, startOpenAiServer } from "../support/openai-server";
import { eventually, newApp, run, startRun } from "../support/runs";

// A run keeps what its model was grounded in (the excerpts with their scores, or the filtered
// rows), whatever way it ends; GET /api/apps/{appId}/runs/{runId}/context shows it to the app's
// builder without scores, to admins with them, and to nobody else.
const server = await startOpenAiServer();
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server));

afterAll(() => server.close());
beforeEach(() => server.reset());

const textItem = syncedTextItem;

const readContext = (appId: string, runId: string, who: { token: string } | null) =>
  call<RunContextAnswer & { error?: { code: string; message: string } }>(contextRoute.GET, {
    method: "GET",
    path: `/api/apps/${appId}/runs/${runId}/context`,
    params: { appId, runId },
    token: who?.token,
  });

const runsOf = (appId: string) => db().select().from(toolRuns).where(eq(toolRuns.appId, appId));

const finished = (runId: string) =>
  eventually(
    () => findRun(runId),
    (r) => r?.status !== "running",
  );

describe("a run's context", () => {
  it("records the excerpts sent to the model; the builder reads them without scores, an admin with them", async () => {
    const owner = await createBuilder();
    const admin = await createBuilder({ isAdmin: true });
    const app = await newApp(owner);
    const item = await textItem(app.id, "policies.txt", [
      "Shipping takes five business days to Europe.",
      "Refund policy: customers may return any purchase within 30 days for a full refund.",
      "Our refund desk answers refund questions by e-mail.",
    ]);
    const question = "What is your refund policy?";
    const expected = await retrieveChunks(app.id, retrievalQuery({ input: question }), 10);
    expect(expected.length).toBeGreaterThan(0);

    const res = await run(app.id, { inputs: { input: question } });
    expect(res.status).toBe(200);
    const runId = res.headers.get(RUN_ID_HEADER)!;
    const recorded = await finished(runId);
    expect(recorded?.status).toBe("success");
    // As sent: the prompt holds each recorded excerpt's text, in the recorded order.
    expect(recorded?.context?.kind).toBe("chunks");
    const excerpts = recorded!.context!.kind === "chunks" ? recorded!.context!.excerpts : [];
    expect(excerpts.map((e) => e.position)).toEqual(expected.map((c) => c.position));
    const system = server.chats[0]!.messages.find((m) => m.role === "system")!.content;
    for (const e of excerpts) {
      expect(e).toMatchObject({ itemId: item.id, itemName: "policies.txt" });
      expect(system).toContain(e.text);
      expect(typeof e.score).toBe("number");
    }
    expect(excerpts.some((e) => e.position === 0)).toBe(false);

    const forBuilder = await readContext(app.id, runId, owner);
    expect(forBuilder.status).toBe(200);
    expect(forBuilder.json.kind).toBe("chunks");
    expect(forBuilder.json.scores).toBe(false);
    expect(forBuilder.json.empty).toBeNull();
    expect(forBuilder.json.excerpts).toEqual(
      excerpts.map((e) => ({ itemId: e.itemId, itemName: e.itemName, position: e.position, text: e.text })),
    );
    // Not hidden: absent from the answer itself.
    for (const e of forBuilder.json.excerpts) expect("score" in e).toBe(false);

    const forAdmin = await readContext(app.id, runId, admin);
    expect(forAdmin.status).toBe(200);
    expect(forAdmin.json.scores).toBe(true);
    expect(forAdmin.json.excerpts).toEqual(excerpts);
    expect(forAdmin.json.excerpts.every((e) => typeof e.score === "number" && e.score > 0)).toBe(true);
  });

  it("another builder and end users get 404, anonymous 401; another app's run and a run that does not exist are 404", async () => {
    const owner = await createBuilder();
    const other = await createBuilder();
    const app = await newApp(owner);
    const otherApp = await newApp(other);
    const endUser = await createEndUser(app.id);
    await textItem(app.id, "notes.txt", ["Opening hours are nine to five."]);
    const res = await run(app.id, { inputs: { input: "opening hours" } });
    const runId = res.headers.get(RUN_ID_HEADER)!;
    await finished(runId);

    const byOther = await readContext(app.id, runId, other);
    expect(byOther.status).toBe(404);
    expect(JSON.stringify(byOther.json)).not.toContain("nine to five");
    expect((await readContext(app.id, runId, endUser)).status).toBe(403);
    expect((await readContext(app.id, runId, null)).status).toBe(401);
    // The other builder's own app does not reach this run through its id.
    const viaOtherApp = await readContext(otherApp.id, runId, other);
    expect(viaOtherApp.status).toBe(404);
    expect(viaOtherApp.json.error?.message).toBe(messages.runNotFound);
    const missing = await readContext(app.id, crypto.randomUUID(), owner);
    expect(missing.status).toBe(404);
    expect((await readContext(app.id, "not-a-uuid", owner)).status).toBe(400);
  });

  it("smart items filtering records the rows sent; a run without excerpts says why", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner, {
      content: {
        gptPrompt: "Recommend a drink.",
        fields: [
          {
            name: "colour",
            label: "Colour",
            type: "select",
            filterCondition: "include",
            options: [
              { label: "Green", iconUrl: null },
              { label: "Black", iconUrl: null },
            ],
          },
        ],
      },
      settings: { aiQueryMethod: "smart_items_filtering" },
    });
    const menu = [
      { name: "Green tea", colour: "Green" },
      { name: "Black tea", colour: "Black" },
      { name: "Matcha", colour: "Green" },
    ];
    const item = await syncedRowsItem(app.id, "menu.csv", menu);

    const res = await run(app.id, { inputs: { colour: "Green" } });
    const runId = res.headers.get(RUN_ID_HEADER)!;
    await finished(runId);
    const answer = (await readContext(app.id, runId, owner)).json;
    expect(answer.kind).toBe("rows");
    expect(answer.rows).toEqual([
      { itemId: item!.id, itemName: "menu.csv", position: 0, data: menu[0] },
      { itemId: item!.id, itemName: "menu.csv", position: 2, data: menu[2] },
    ]);

    // No data sources at all: the builder is told to add some.
    const bare = await newApp(owner);
    const bareRun = await run(bare.id, { inputs: { input: "anything at all" } });
    const bareId = bareRun.headers.get(RUN_ID_HEADER)!;
    await finished(bareId);
    const empty = (await readContext(bare.id, bareId, owner)).json;
    expect(empty).toMatchObject({ kind: "chunks", excerpts: [], empty: "noSources" });

    // Sources, but nothing matches.
    await textItem(bare.id, "facts.txt", ["Penguins live in the southern hemisphere."]);
    const missRun = await run(bare.id, { inputs: { input: "volcano eruptions" } });
    const missId = missRun.headers.get(RUN_ID_HEADER)!;
    await finished(missId);
    expect((await readContext(bare.id, missId, owner)).json).toMatchObject({ empty: "nothingMatched" });
  });

  it("a run cancelled before the first word and one the model failed still show their excerpts", async () => {
    const owner = await createBuilder();
    const app = await newApp(owner);
    await textItem(app.id, "manual.txt", ["The reset button is under the battery cover."]);

    server.script(
      { status: 500, message: "The engine is overloaded", retryAfterMs: 0 },
      { status: 500, message: "The engine is overloaded", retryAfterMs: 0 },
    );
    const failed = await run(app.id, { inputs: { input: "where is the reset button" } });
    expect(failed.status).toBe(502);
    const [failedRun] = await runsOf(app.id);
    expect(failedRun!.status).toBe("error");
    const failedAnswer = (await readContext(app.id, failedRun!.id, owner)).json;
    expect(failedAnswer.excerpts.map((e) => e.text)).toEqual([
      "The reset button is under the battery cover.",
    ]);

    server.script({ text: "Too late", delayMs: 3000 });
    const client = new AbortController();
    const pending = startRun(app.id, { signal: client.signal, inputs: { input: "reset button" } });
    await eventually(
      async () => server.chats.length,
      (n) => n >= 1,
    );
    client.abort();
    expect((await pending).status).toBe(499);
    const runs = await runsOf(app.id);
    const cancelled = runs.find((r) => r.status === "cancelled")!;
    expect(cancelled).toBeDefined();
    const cancelledAnswer = (await readContext(app.id, cancelled.id, owner)).json;
    expect(cancelledAnswer.excerpts).toHaveLength(1);

    // While a run goes on, its data is not written yet: it says so rather than "not recorded".
    server.script({ text: "Slowly", delayMs: 2000 });
    const asked = server.chats.length;
    const slow = new AbortController();
    const ongoing = startRun(app.id, { signal: slow.signal, inputs: { input: "reset button" } });
    await eventually(
      async () => server.chats.length,
      (n) => n > asked,
    );
    const running = (await runsOf(app.id)).find((r) => r.status === "running")!;
    expect((await readContext(app.id, running.id, owner)).json).toMatchObject({
      empty: "running",
      excerpts: [],
    });
    slow.abort();
    await ongoing;
  });
});
