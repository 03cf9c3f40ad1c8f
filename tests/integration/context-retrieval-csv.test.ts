import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as ingestFileRoute from "@/app/api/context/ingest/file/route";
import { db } from "@/db/client";
import { contextItems } from "@/db/schema";
import { retrieveChunks } from "@/lib/context/retrieve";
import { runDueJobs } from "@/lib/jobs/worker";
import { createBuilder } from "../support/factories";
import { openAiServerEnv, startOpenAiServer } from "../support/openai-server";
import { newApp, run } from "../support/runs";
import { send } from "../support/uploads-client";

// A question naming a cell value finds that row in a big item list, through the product's whole
// path: the upload, the streaming CSV ingestion, the run's query and BM25. Before, only the first
// 100 chunks matching its every word were ranked, in storage order: "city" and "code" are in every
// row, so the row asked about was never among them (0 of 5 on a 42k-row list of zip codes).
const STORAGE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "context-retrieval-csv-test-"));
process.env.STORAGE_DIR = STORAGE_DIR;
const server = await startOpenAiServer();
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server));
afterAll(() => {
  server.close();
  fs.rmSync(STORAGE_DIR, { recursive: true, force: true });
});

const ROWS = 40_000;
const STATES = ["NY", "CA", "TX", "FL", "OH", "WA", "GA", "MI"];
const COUNTIES = ["Greene", "Kings", "Orange", "Marion", "Clark", "Jefferson", "Franklin"];
/** Zip codes 10000.. with every city name shared by fifty of them, as a real list repeats names. */
function zipRow(i: number) {
  const zip = String(10000 + i);
  if (zip === "12414") return "12414,42.2,-73.9,Catskill,NY,Greene";
  return `${zip},${(30 + (i % 17) * 0.7).toFixed(4)},${(-120 + (i % 23) * 1.3).toFixed(4)},Springfield ${Math.floor(i / 50)},${STATES[i % 8]},${COUNTIES[i % 7]}`;
}

describe("a 40k-row CSV item list", () => {
  it("a question naming a rare code finds its row first, and a run is grounded in it", async () => {
    const owner = await createBuilder({ plan: "explorer" });
    const app = await newApp(owner);
    const csv = `zip_code,latitude,longitude,city,state,county\n${Array.from({ length: ROWS }, (_, i) => zipRow(i)).join("\n")}\n`;
    const res = await send(ingestFileRoute.POST, {
      method: "POST",
      path: `/api/context/ingest/file?appId=${app.id}&name=zipcodes.csv`,
      params: {},
      token: owner.token,
      body: new TextEncoder().encode(csv),
    });
    expect(res.status).toBe(200);
    const id = (res.json as unknown as { contextItemId: string }).contextItemId;
    await runDueJobs();
    expect((await db().select().from(contextItems).where(eq(contextItems.id, id)))[0]!.status).toBe("synced");

    for (const [question, row] of [
      [
        "Which city has the zip code 12414?",
        "zip_code: 12414; latitude: 42.2; longitude: -73.9; city: Catskill",
      ],
      ["In which county is zip 10007?", "zip_code: 10007;"],
      ["What is the state of 49999", "zip_code: 49999;"],
    ] as const) {
      const found = await retrieveChunks(app.id, question, 10);
      expect(found[0]!.text, question).toContain(row);
    }

    const answered = await run(app.id, { inputs: { input: "Which city has the zip code 12414?" } });
    expect(answered.status).toBe(200);
    const system = server.chats[0]!.messages.filter((m) => m.role === "system")
      .map((m) => m.content)
      .join("\n");
    expect(system).toContain("city: Catskill; state: NY; county: Greene");
  });
});
