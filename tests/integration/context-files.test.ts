import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as itemRoute from "@/app/api/context/[id]/route";
import * as ingestFileRoute from "@/app/api/context/ingest/file/route";
import { db } from "@/db/client";
import { insertApp } from "@/db/queries/apps";
import { listContextChunks, listContextRows } from "@/db/queries/context-content";
import { monthlyContextUsage } from "@/db/queries/context-usage";
import { contextItems } from "@/db/schema";
import { runDueJobs } from "@/lib/jobs/worker";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { docxParts, docxWithText, oleDoc, zip } from "../support/documents";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { send } from "../support/uploads-client";

// File data sources: typed by their bytes, capped by the owner's plan before the
// body is read, stored as they came, then parsed by the job (papaparse, unpdf, mammoth). Stored on
// disk in a directory of this file's own.
const STORAGE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "context-files-test-"));
process.env.STORAGE_DIR = STORAGE_DIR;
afterAll(() => fs.rmSync(STORAGE_DIR, { recursive: true, force: true }));

type Builder = Awaited<ReturnType<typeof createBuilder>>;
const MB = 1024 * 1024;

const newApp = (b: Builder) => insertApp({ ownerAccountId: b.account.accountId, header: "Files app" });
const addFile = (b: Builder, appId: string, body: BodyInit | Uint8Array, name?: string, headers = {}) =>
  send(ingestFileRoute.POST, {
    method: "POST",
    path: `/api/context/ingest/file?appId=${appId}${name ? `&name=${encodeURIComponent(name)}` : ""}`,
    params: {},
    token: b.token,
    body,
    headers,
  });
const itemOf = async (id: string) =>
  (await db().select().from(contextItems).where(eq(contextItems.id, id)))[0]!;
const storedFiles = (b: Builder, appId: string) => {
  const dir = path.join(STORAGE_DIR, "accounts", b.account.accountId, "apps", appId, "context");
  // The disk driver keeps each object's type beside it in a dot file.
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => !f.startsWith(".")) : [];
};
const idOf = (res: { json: unknown }) => (res.json as { contextItemId: string }).contextItemId;
const utf8 = (s: string) => new TextEncoder().encode(s);

/** A one-page PDF with one line of text, its cross-reference offsets computed. */
function tinyPdf(line: string): Uint8Array {
  const stream = `BT /F1 12 Tf 72 720 Td (${line}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return utf8(out);
}

describe("file data sources", () => {
  it("a CSV becomes Pending at once, then rows and chunks of 'header: value' lines, Synced", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const csv = '\uFEFFname,price,colour\nTea,3,green\n\nCoffee,4,"dark, strong"\n';
    const res = await addFile(b, app.id, utf8(csv), "menu.csv");
    expect(res.status).toBe(200);
    const id = idOf(res);
    expect(await itemOf(id)).toMatchObject({ status: "pending", type: "csv", name: "menu.csv" });
    expect(storedFiles(b, app.id)).toEqual([`${id}.csv`]);

    await runDueJobs();
    expect((await itemOf(id)).status).toBe("synced");
    expect((await listContextRows(id)).map((r) => r.data)).toEqual([
      { name: "Tea", price: "3", colour: "green" },
      { name: "Coffee", price: "4", colour: "dark, strong" },
    ]);
    expect((await listContextChunks(id)).map((c) => c.text)).toEqual([
      "name: Tea; price: 3; colour: green\nname: Coffee; price: 4; colour: dark, strong",
    ]);

    // Deleting the item deletes its stored file too.
    const del = await call(itemRoute.DELETE, {
      method: "DELETE",
      path: `/api/context/${id}`,
      params: { id },
      token: b.token,
    });
    expect(del.status).toBe(200);
    expect(storedFiles(b, app.id)).toEqual([]);
    expect(await listContextRows(id)).toEqual([]);
  });

  it("a PDF's text is extracted by unpdf", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const res = await addFile(b, app.id, tinyPdf("Opening hours zanzibar Sunday"), "hours.pdf");
    expect(res.status).toBe(200);
    const id = idOf(res);
    await runDueJobs();
    expect(await itemOf(id)).toMatchObject({ status: "synced", type: "pdf" });
    const chunks = await listContextChunks(id);
    expect(chunks.map((c) => c.text).join(" ")).toContain("Opening hours zanzibar Sunday");
  });

  it("a DOCX's text is extracted by mammoth", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const res = await addFile(b, app.id, docxWithText(["Our returns policy is thirty days"]), "policy.docx");
    expect(res.status).toBe(200);
    const id = idOf(res);
    await runDueJobs();
    expect(await itemOf(id)).toMatchObject({ status: "synced", type: "doc" });
    expect((await listContextChunks(id)).map((c) => c.text)).toEqual(["Our returns policy is thirty days"]);
  });

  it("a ZIP bomb ends in Error, whether its sizes are stated or lied about, without a retry", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const parts = docxParts(["x".repeat(100_000)]);
    const stated = [...parts.slice(0, 2), { ...parts[2]!, declare: 300 * MB }];
    const lying = [...parts.slice(0, 2), { ...parts[2]!, declare: 100 }];
    const a = idOf(await addFile(b, app.id, zip(stated), "bomb.docx"));
    const c = idOf(await addFile(b, app.id, zip(lying), "bomb2.docx"));
    await runDueJobs();
    expect(await itemOf(a)).toMatchObject({ status: "error", error: messages.contextDocxTooLarge });
    expect(await itemOf(c)).toMatchObject({ status: "error", error: messages.contextFileUnreadable });
  });

  it("a Word file of more than 24 MiB of markup is refused before it is parsed or charged; pictures do not count", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    // Real markup, as stated: one paragraph of 25 MiB (a real document holds a few MB).
    const big = idOf(await addFile(b, app.id, docxWithText(["x".repeat(25 * MB)]), "big.docx"));
    await runDueJobs();
    expect(await itemOf(big)).toMatchObject({ status: "error", error: messages.contextDocxTooLarge });
    expect(await monthlyContextUsage(b.account.accountId)).toBe(0);
    // 30 MB of pictures beside a short text: never unpacked to read it, so neither capped nor charged.
    const picture = { name: "word/media/image1.png", data: "p".repeat(30 * MB) };
    const file = zip([...docxParts(["A short text with a large picture"]), picture]);
    const pictured = idOf(await addFile(b, app.id, file, "pictured.docx"));
    await runDueJobs();
    expect(await itemOf(pictured)).toMatchObject({ status: "synced" });
    expect(await monthlyContextUsage(b.account.accountId)).toBe(file.length);
    // Building 55 MB of parts takes a while on a busy machine.
  }, 120_000);

  it("a .doc is accepted and ends in Error saying it cannot be read", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const res = await addFile(b, app.id, oleDoc(), "old.doc");
    expect(res.status).toBe(200);
    const id = idOf(res);
    await runDueJobs();
    expect(await itemOf(id)).toMatchObject({ status: "error", error: messages.contextDocUnreadable });
  });

  it("refuses content that does not match the name, unknown types, no file and a CSV without rows", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const mismatch = await addFile(b, app.id, utf8("name,price\nTea,3\n"), "report.pdf");
    expect(mismatch.status).toBe(400);
    expect(mismatch.json?.error.message).toBe(fillTemplate(messages.contextFileMismatch, { type: "PDF" }));
    const pdfAsCsv = await addFile(b, app.id, tinyPdf("x"), "list.csv");
    expect(pdfAsCsv.json?.error.message).toBe(fillTemplate(messages.contextFileMismatch, { type: "CSV" }));
    const zipAsDocx = await addFile(b, app.id, zip([{ name: "a.txt", data: "hi" }]), "a.docx");
    expect(zipAsDocx.json?.error.message).toBe(fillTemplate(messages.contextFileMismatch, { type: "Word" }));
    const exe = await addFile(b, app.id, utf8("hello"), "tool.exe");
    expect(exe.status).toBe(400);
    expect(exe.json?.error.message).toBe(messages.contextFileType);

    const empty = await addFile(b, app.id, new Uint8Array(0), "list.csv");
    expect(empty.status).toBe(400);
    expect(empty.json?.error.message).toBe("Please upload a file");
    for (const csv of ["name,price\n", "name,price\n\n  \n", ",\n,\n"]) {
      const res = await addFile(b, app.id, utf8(csv), "list.csv");
      expect(res.status).toBe(400);
      expect(res.json?.error.message).toBe(
        "Failed to upload context, make sure your CSV file has column headers and a few rows",
      );
    }
    expect(await db().select().from(contextItems).where(eq(contextItems.appId, app.id))).toEqual([]);
    expect(storedFiles(b, app.id)).toEqual([]);
  });

  it("refuses a file over the plan's size (10 MB on lite) with 413 before reading it all", async () => {
    const b = await createBuilder();
    const app = await newApp(b);
    const tooBig = {
      error: {
        code: "PAYLOAD_TOO_LARGE",
        message: "Failed to upload context, file size is too big (max 10 MB)",
      },
    };

    const declared = await addFile(b, app.id, utf8("a,b\n1,2\n"), "list.csv", {
      "content-length": String(10 * MB + 1),
    });
    expect(declared.status).toBe(413);
    expect(declared.json).toEqual(tooBig);

    // A chunked body that never ends: an answer proves the reading stopped at the cap.
    let sent = 0;
    let cancelled = false;
    const chunk = utf8("a,b\n".padEnd(64 * 1024, "x"));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    });
    const streamed = await addFile(b, app.id, stream, "list.csv");
    expect(streamed.status).toBe(413);
    expect(streamed.json).toEqual(tooBig);
    expect(cancelled).toBe(true);
    expect(sent).toBeLessThan(10 * MB + 3 * 64 * 1024);

    // Past any plan's size the route refuses from the declared length alone.
    const huge = await addFile(b, app.id, utf8("a"), "list.csv", { "content-length": String(20 * MB + 1) });
    expect(huge.status).toBe(413);
    expect(huge.json?.error.message).toBe("Failed to upload context, file size is too big (max 20 MB)");
    expect(storedFiles(b, app.id)).toEqual([]);
  });

  it("a paid plan takes files up to 20 MB", async () => {
    const b = await createBuilder({ plan: "explorer" });
    const app = await newApp(b);
    const declared = await addFile(b, app.id, utf8("a,b\n1,2\n"), "list.csv", {
      "content-length": String(20 * MB + 1),
    });
    expect(declared.json?.error.message).toBe("Failed to upload context, file size is too big (max 20 MB)");
    const body = utf8(`a,b\n${"1,2\n".repeat((12 * MB) / 4)}`);
    const res = await addFile(b, app.id, body, "big.csv");
    expect(res.status).toBe(200);
  });

  it("lite holds one item: the second file is refused with the upgrade prompt, nothing stored", async () => {
    const b = await createBuilder();
    const app = await newApp(b);
    expect((await addFile(b, app.id, utf8("a,b\n1,2\n"), "one.csv")).status).toBe(200);
    const second = await addFile(b, app.id, utf8("a,b\n1,2\n"), "two.csv");
    expect(second.status).toBe(403);
    expect(second.json?.error).toEqual({ code: "PLAN_LIMIT", message: messages.upgradeReasonDataItems });
    expect(storedFiles(b, app.id)).toHaveLength(1);
  });

  it("another builder's app is not found", async () => {
    const owner = await createBuilder({ plan: "explorer" });
    const other = await createBuilder({ plan: "explorer" });
    const app = await newApp(owner);
    const res = await addFile(other, app.id, utf8("a,b\n1,2\n"), "x.csv");
    expect(res.status).toBe(404);
    expect(storedFiles(owner, app.id)).toEqual([]);
  });
});
