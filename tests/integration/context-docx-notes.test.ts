import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as ingestFileRoute from "@/app/api/context/ingest/file/route";
import { db } from "@/db/client";
import { insertApp } from "@/db/queries/apps";
import { listContextChunks } from "@/db/queries/context-content";
import { contextItems } from "@/db/schema";
import { extractFileText } from "@/lib/context/extract-file";
import { retrieveChunks } from "@/lib/context/retrieve";
import { runDueJobs } from "@/lib/jobs/worker";
import { type DocxNotes, docxWithNotes } from "../support/documents";
import { createBuilder } from "../support/factories";
import { send } from "../support/uploads-client";

// A Word file's footnotes, endnotes, comments and text boxes are part of its text (read by the
// parsing worker, lib/context/parse/docx-text.mjs): each note and comment is marked where the body
// references it and written at the end under the same label, so retrieval finds their words.
const STORAGE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "context-docx-notes-test-"));
process.env.STORAGE_DIR = STORAGE_DIR;
afterAll(() => fs.rmSync(STORAGE_DIR, { recursive: true, force: true }));

const NOTES: DocxNotes = {
  footnote: "Quokkas nest under the old pier.",
  endnote: "Axolotl tanks close for the winter.",
  comment: { author: "Ada Lovelace", text: "Check the pangolin ferry at noon." },
  textBox: "Narwhal excursions leave from berth four.",
  table: [
    ["Pier", "Departure"],
    ["North", "08:15"],
  ],
};

describe("Word notes, comments and text boxes", () => {
  it("the parser writes each where it belongs: marks in the body, labelled texts at the end", async () => {
    const { text } = await extractFileText("docx", new Uint8Array(docxWithNotes(NOTES)));
    expect(text).toBe(
      [
        "The harbour opens at dawn[Footnote 1] and closes at dusk.[Endnote 1]",
        "Ferries leave every hour.[Comment 1]",
        "The timetable is in the box.",
        // A text box's text comes after the paragraph that holds it.
        "Narwhal excursions leave from berth four.",
        // A table row per line, its cells apart.
        "Pier | Departure",
        "North | 08:15",
        "End of the guide.",
        "Footnote 1: Quokkas nest under the old pier.",
        "Endnote 1: Axolotl tanks close for the winter.",
        "Comment 1 (by Ada Lovelace): Check the pangolin ferry at noon.",
      ].join("\n"),
    );
  });

  it("an ingested Word file: a word only in a footnote, an endnote, a comment or a text box is found", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await insertApp({ ownerAccountId: b.account.accountId, header: "Harbour guide" });
    // Enough body before the notes for several chunks: the notes' texts are not in the first.
    const before = Array.from(
      { length: 40 },
      (_, i) => `Section ${i + 1}: the harbour office sells tickets for every boat and every trip.`,
    );
    const res = await send(ingestFileRoute.POST, {
      method: "POST",
      path: `/api/context/ingest/file?appId=${app.id}&name=guide.docx`,
      params: {},
      token: b.token,
      body: new Uint8Array(docxWithNotes({ ...NOTES, before })),
    });
    expect(res.status).toBe(200);
    const id = (res.json as unknown as { contextItemId: string }).contextItemId;
    await runDueJobs();
    const [item] = await db().select().from(contextItems).where(eq(contextItems.id, id));
    expect(item).toMatchObject({ status: "synced", type: "doc" });
    expect((await listContextChunks(id)).length).toBeGreaterThan(2);

    for (const [word, expected] of [
      ["quokkas", "Footnote 1: Quokkas nest under the old pier."],
      ["axolotl", "Endnote 1: Axolotl tanks close for the winter."],
      ["pangolin", "Comment 1 (by Ada Lovelace): Check the pangolin ferry at noon."],
      ["narwhal", "Narwhal excursions leave from berth four."],
    ] as const) {
      const found = await retrieveChunks(app.id, word, 10);
      expect(found.length, word).toBeGreaterThan(0);
      // Chunks overlap, so the labelled line may be cut at one chunk's end and whole in the next.
      expect(found[0]?.text.toLowerCase(), word).toContain(word);
      expect(
        found.some((c) => c.itemId === id && c.text.includes(expected)),
        word,
      ).toBe(true);
    }
  });
});
