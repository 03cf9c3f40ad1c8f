import fs from "node:fs";
import path from "node:path";
import { PDFDocument, type PDFFont, StandardFonts } from "pdf-lib";
import { docxParts, zip } from "../tests/support/documents";
import { randomFrom } from "./context-fixtures";
import type { Question } from "./quality-questions";

// The PDFs and Word files of the retrieval-quality benchmark: real technical text nobody here
// wrote, read from packages installed in node_modules (mime-db's table of media types, the
// changelogs of recharts, nodemailer and mime-db, sharp's C++ headers), laid out as multi-page
// documents, each with questions built from the facts they hold (versions such as 0.21.2, types
// such as audio/midi, extensions such as .kar, file names such as utilities.h).

export type BenchDocument = { name: string; bytes: Uint8Array; questions: Question[] };

const MODULES = path.resolve("node_modules");

/** A line a standard PDF font can draw (WinAnsi): quotes and dashes made plain, the rest dropped. */
function plain(s: string): string {
  return s
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, "-")
    .replace(/[^\x20-\x7e]/g, "");
}

/** Lines of at most `width` characters, cut between words. */
function wrap(line: string, width: number): string[] {
  const out: string[] = [];
  let current = "";
  for (const word of line.split(/\s+/).filter(Boolean)) {
    if (current && current.length + 1 + word.length > width) {
      out.push(current);
      current = "";
    }
    current = current ? `${current} ${word}` : word;
  }
  if (current) out.push(current);
  return out;
}

type Block = { text: string; heading?: boolean };
/** A document's text and the questions about it. */
type Source = { blocks: Block[]; questions: Omit<Question, "document" | "kind">[] };

/** A PDF of letter pages: headings in bold, text wrapped at ~95 characters, ~44 lines a page. */
async function renderPdf(title: string, blocks: Block[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let page = doc.addPage([612, 792]);
  let y = 740;
  const draw = (text: string, font: PDFFont, size: number, gap: number) => {
    if (y < 60) {
      page = doc.addPage([612, 792]);
      y = 740;
    }
    page.drawText(text, { x: 56, y, size, font });
    y -= gap;
  };
  draw(plain(title), bold, 16, 28);
  for (const b of blocks) {
    if (b.heading) {
      y -= 6;
      draw(plain(b.text), bold, 12, 18);
    } else {
      for (const line of wrap(plain(b.text), 95)) draw(line, regular, 10, 15);
    }
  }
  return doc.save();
}

/** A Word file, one paragraph per block (the headings as paragraphs of their own). */
function renderDocx(title: string, blocks: Block[]): Uint8Array {
  return zip(docxParts([title, ...blocks.map((b) => b.text)]));
}

// --- mime-db's table: one line per media type --------------------------------------------------

type MimeEntry = { source?: string; extensions?: string[]; compressible?: boolean };

function mimeReference(): Source {
  const db = JSON.parse(fs.readFileSync(path.join(MODULES, "mime-db/db.json"), "utf8")) as Record<
    string,
    MimeEntry
  >;
  const typed = Object.keys(db)
    .filter((t) => db[t]!.extensions?.length)
    .sort();
  // Every third type with extensions (some 320), audio/midi among them.
  const chosen = typed.filter((t, i) => i % 3 === 0 || t === "audio/midi");
  const ownersOf = new Map<string, number>();
  for (const t of typed) for (const e of db[t]!.extensions!) ownersOf.set(e, (ownersOf.get(e) ?? 0) + 1);
  const line = (t: string) => {
    const e = db[t]!;
    const compressible = e.compressible === undefined ? "unknown" : e.compressible ? "yes" : "no";
    return `${t}: file extensions ${e.extensions!.map((x) => `.${x}`).join(", ")}; source ${e.source ?? "none"}; compressible ${compressible}.`;
  };
  const blocks: Block[] = [
    {
      text:
        "This reference lists media types (MIME types) with the file name extensions that identify " +
        "them, where each registration comes from (IANA, Apache or nginx) and whether the content " +
        "compresses well when served over HTTP.",
    },
  ];
  let group = "";
  for (const t of chosen) {
    const top = t.split("/")[0]!;
    if (top !== group) {
      group = top;
      blocks.push({ text: `Top-level type ${top}`, heading: true });
    }
    blocks.push({ text: line(t) });
  }
  const rand = randomFrom(1201);
  const pick = (ok: (t: string) => boolean) => {
    for (;;) {
      const t = chosen[Math.floor(rand() * chosen.length)]!;
      if (ok(t)) return t;
    }
  };
  const questions: Omit<Question, "document" | "kind">[] = [
    { question: "Which file extensions does audio/midi use?", needle: ["audio/midi", ".kar"] },
  ];
  const seen = new Set<string>(["audio/midi"]);
  const fresh = (ok: (t: string) => boolean) => (t: string) => !seen.has(t) && ok(t);
  for (let i = 0; i < 4; i++) {
    // An extension only one type claims, so the answer is that type.
    const t = pick(fresh((x) => db[x]!.extensions!.some((e) => ownersOf.get(e) === 1 && e.length >= 3)));
    seen.add(t);
    const ext = db[t]!.extensions!.find((e) => ownersOf.get(e) === 1 && e.length >= 3)!;
    questions.push({ question: `What is the MIME type of a .${ext} file?`, needle: [t, `.${ext}`] });
  }
  for (let i = 0; i < 3; i++) {
    const t = pick(fresh(() => true));
    seen.add(t);
    questions.push({
      question: `Which file extensions are registered for ${t}?`,
      needle: [t, `.${db[t]!.extensions![0]}`],
    });
  }
  return { blocks, questions };
}

// --- changelogs: a heading per release, its entries below -------------------------------------

type Release = { version: string; date: string; lines: Block[]; entries: string[] };

/** Markdown made plain text: links to their words, issue and commit references and code marks dropped. */
function unmark(s: string): string {
  return s
    .replace(/\(\[[^\]]*\]\([^)]*\)\)/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`/g, "")
    .replace(/\*\*/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The releases of a changelog, newest first: "## 0.21.2 (Mar 01, 2017)", "## [8.0.9](…) (2026-05-26)"
 * or "1.52.0 / 2022-02-21" underlined with "=", each with its "### kind" lines and its entries.
 */
function releases(markdown: string): Release[] {
  const out: Release[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const hashed = /^##\s+\[?v?(\d+\.\d+\.\d+)\]?(?:\([^)]*\))?\s*\(?([^)]*)\)?/.exec(line);
    const underlined =
      /^v?(\d+\.\d+\.\d+)\s*\/\s*(\S+)/.exec(line) && /^=+\s*$/.test(lines[i + 1] ?? "")
        ? /^v?(\d+\.\d+\.\d+)\s*\/\s*(\S+)/.exec(line)
        : null;
    const head = hashed ?? underlined;
    if (head) {
      out.push({ version: head[1]!, date: head[2]!.trim(), lines: [], entries: [] });
      continue;
    }
    const release = out.at(-1);
    if (!release) continue;
    const kind = /^###\s+(.*)/.exec(line);
    const entry = /^\s*[-*]\s+(.*)/.exec(line);
    if (kind) release.lines.push({ text: unmark(kind[1]!) });
    else if (entry && unmark(entry[1]!)) {
      const text = unmark(entry[1]!);
      // Nested entries (a dependency's own changes) read as part of the list.
      release.lines.push({ text: `- ${text}` });
      release.entries.push(text);
    }
  }
  return out.filter((r) => r.entries.length > 0);
}

const STOP = new Set("the and for with from when that this into have been does more than".split(" "));

/** The two longest words of an entry's first ten (letters and digits only): what its excerpt must show. */
function keyWords(entry: string): string[] {
  const words = plain(entry)
    .split(/\s+/)
    .slice(0, 10)
    .map((w) => w.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, ""))
    .filter((w) => /^[A-Za-z][A-Za-z0-9]*$/.test(w) && w.length >= 4 && !STOP.has(w.toLowerCase()));
  return [...new Set(words)].sort((a, b) => b.length - a.length || a.localeCompare(b)).slice(0, 2);
}

function changelog(
  pkg: string,
  file: string,
  opts: { seed: number; forward: number; reverse: number; include?: string[] },
): Source {
  const all = releases(fs.readFileSync(path.join(MODULES, pkg, file), "utf8"));
  const blocks: Block[] = [];
  const heading = (r: Release) => `${pkg} ${r.version} (${r.date})`;
  for (const r of all) blocks.push({ text: heading(r), heading: true }, ...r.lines);
  // Entries written once in the whole changelog ("Add new upstream MIME types" is in most releases).
  const times = new Map<string, number>();
  for (const r of all) for (const e of r.entries) times.set(e, (times.get(e) ?? 0) + 1);
  const usable = all.filter(
    (r) =>
      times.get(r.entries[0]!) === 1 && keyWords(r.entries[0]!).length === 2 && r.entries[0]!.length < 160,
  );
  const rand = randomFrom(opts.seed);
  const chosen: Release[] = usable.filter((r) => opts.include?.includes(r.version));
  while (chosen.length < opts.forward + opts.reverse) {
    const r = usable[Math.floor(rand() * usable.length)]!;
    if (!chosen.includes(r)) chosen.push(r);
  }
  const questions = chosen.map((r, i) => {
    const first = plain(r.entries[0]!);
    const needle = [`${r.version} (`, ...keyWords(first)];
    return i < opts.forward
      ? { question: `What changed in ${pkg} ${r.version}?`, needle }
      : { question: `In which ${pkg} release did this change ship: "${first}"?`, needle };
  });
  return { blocks, questions };
}

// --- sharp's native sources: an index of what each C++ header declares -------------------------

/** The functions a C++ header declares, one per line: `name(` after a return type, in file order. */
function declarations(source: string): { line: number; text: string; name: string }[] {
  const out: { line: number; text: string; name: string }[] = [];
  for (const [i, raw] of source.split("\n").entries()) {
    const text = raw.trim();
    if (/^(\/\/|\/\*|\*|#|return\b|if\b|for\b|while\b|switch\b|case\b|else\b)/.test(text)) continue;
    const m = /^[A-Za-z_][\w:<>,*& ]*[\s*&](\w+)\(/.exec(text);
    if (m && (text.endsWith(";") || text.endsWith("{")))
      out.push({ line: i + 1, text: text.replace(/\s*\{$/, ";"), name: m[1]! });
  }
  return out;
}

/**
 * An index of sharp's native headers (node_modules/sharp/src/*.h, file names such as pipeline.h,
 * functions such as AttrAsVectorOfDouble): every declaration as "file:line declaration". Sharp is
 * an optional dependency of Next.js: without it, no document.
 */
function sharpIndex(): Source | undefined {
  const dir = path.join(MODULES, "sharp/src");
  if (!fs.existsSync(dir)) return undefined;
  const headers = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".h"))
    .sort()
    .map((file) => ({ file, decls: declarations(fs.readFileSync(path.join(dir, file), "utf8")) }))
    .filter((h) => h.decls.length > 0);
  const blocks: Block[] = [
    {
      text:
        "This index lists the functions declared by the C++ headers of sharp's native module (the " +
        "bindings between Node.js and libvips), one line per declaration with its file and line.",
    },
  ];
  for (const h of headers) {
    blocks.push({ text: `src/${h.file}`, heading: true });
    for (const d of h.decls) blocks.push({ text: `${h.file}:${d.line} ${d.text}` });
  }
  const declared = new Map<string, number>();
  for (const h of headers) for (const d of h.decls) declared.set(d.name, (declared.get(d.name) ?? 0) + 1);
  const rand = randomFrom(1601);
  const all = headers.flatMap((h) => h.decls.map((d) => ({ file: h.file, ...d })));
  const names: typeof all = [];
  while (names.length < 2) {
    const d = all[Math.floor(rand() * all.length)]!;
    if (declared.get(d.name) === 1 && d.name.length >= 6 && !names.includes(d)) names.push(d);
  }
  // The two shortest lists (one excerpt holds the whole answer), by their first declaration.
  const files = headers
    .filter((h) => h.decls.length >= 2)
    .sort((a, b) => a.decls.length - b.decls.length || a.file.localeCompare(b.file))
    .slice(0, 2);
  return {
    blocks,
    questions: [
      ...names.map((d) => ({
        question: `In which sharp source file is ${d.name} declared?`,
        needle: [`${d.file}:${d.line}`, d.name],
      })),
      ...files.map((h) => ({
        question: `Which functions does ${h.file} declare in sharp?`,
        needle: [`${h.file}:${h.decls[0]!.line}`, h.decls[0]!.name],
      })),
    ],
  };
}

const tag = (qs: Omit<Question, "document" | "kind">[], document: string): Question[] =>
  qs.map((q) => ({ ...q, document, kind: document.endsWith(".pdf") ? "pdf" : "docx" }));

/** The bench's own PDFs and Word files, with their questions. */
export async function benchDocuments(): Promise<BenchDocument[]> {
  const pdf = async (name: string, title: string, source: Source): Promise<BenchDocument> => ({
    name,
    bytes: await renderPdf(title, source.blocks),
    questions: tag(source.questions, name),
  });
  const docx = (name: string, title: string, source: Source): BenchDocument => ({
    name,
    bytes: renderDocx(title, source.blocks),
    questions: tag(source.questions, name),
  });
  const sharp = sharpIndex();
  return [
    ...(sharp ? [docx("sharp-native-index.docx", "sharp native module: declarations", sharp)] : []),
    await pdf("media-types-reference.pdf", "Media types reference", mimeReference()),
    await pdf(
      "recharts-changelog.pdf",
      "recharts release notes",
      changelog("recharts", "CHANGELOG.md", {
        seed: 1301,
        forward: 3,
        reverse: 3,
        include: ["0.21.2", "0.21.0"],
      }),
    ),
    docx(
      "nodemailer-changelog.docx",
      "nodemailer release notes",
      changelog("nodemailer", "CHANGELOG.md", { seed: 1401, forward: 3, reverse: 3 }),
    ),
    docx(
      "mime-db-history.docx",
      "mime-db release history",
      changelog("mime-db", "HISTORY.md", { seed: 1501, forward: 2, reverse: 2 }),
    ),
  ];
}
