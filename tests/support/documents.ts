import { deflateRawSync, deflateSync } from "node:zlib";
import { crc32 } from "./crc32";

// Office files built byte by byte in tests (a ZIP of deflated entries, a Word .docx in one, an old
// .doc), so the server's type check and the worker's parsers meet the files builders upload. The
// integration tests and the e2e specs share them.

export type ZipEntry = {
  name: string;
  data: string;
  /** The unpacked size the archive states instead of the real one (a ZIP bomb's lie). */
  declare?: number;
};

/** A ZIP archive of deflated entries. */
export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = Buffer.from(e.data);
    const packed = deflateRawSync(data);
    const name = Buffer.from(e.name);
    const size = e.declare ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The parts of the smallest Word (.docx) document mammoth reads, one paragraph per line; the
 * document itself is the last part.
 */
export function docxParts(lines: string[]): ZipEntry[] {
  const paragraphs = lines.map((l) => `<w:p><w:r><w:t>${escapeXml(l)}</w:t></w:r></w:p>`).join("");
  return [
    {
      name: "[Content_Types].xml",
      data: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    },
    {
      name: "_rels/.rels",
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    },
    {
      name: "word/document.xml",
      data: `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs}</w:body></w:document>`,
    },
  ];
}

/** A Word (.docx) document of these paragraphs. */
export const docxWithText = (lines: string[]): Buffer => zip(docxParts(lines));

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const run = (text: string) => `<w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
const para = (inner: string) => `<w:p>${inner}</w:p>`;

/** What goes beside a Word document's body, each part written as Word writes it. */
export type DocxNotes = {
  /** Paragraphs before the noted ones (to spread the document over several chunks). */
  before?: string[];
  footnote: string;
  endnote: string;
  comment: { author: string; text: string };
  textBox: string;
  /** A table's rows of cells. */
  table: string[][];
};

/**
 * A Word (.docx) document with a footnote, an endnote, a comment, a text box and a table, as
 * Word stores them: notes and comments in parts of their own (word/footnotes.xml, endnotes.xml,
 * comments.xml, with the separator notes Word adds), referenced from the body's runs; the text
 * box as a DrawingML shape with its VML fallback, both holding the same w:txbxContent.
 */
export function docxWithNotes(n: DocxNotes): Buffer {
  const textBox = para(run(n.textBox));
  const shape = `<mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="1828800" cy="457200"/><wp:wrapSquare wrapText="bothSides"/><wp:docPr id="1" name="Text Box 1"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:txbx><w:txbxContent>${textBox}</w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape id="Text Box 1" type="#_x0000_t202" style="width:144pt;height:36pt"><v:textbox><w:txbxContent>${textBox}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent>`;
  const table = `<w:tbl><w:tblPr/>${n.table
    .map((row) => `<w:tr>${row.map((cell) => `<w:tc>${para(run(cell))}</w:tc>`).join("")}</w:tr>`)
    .join("")}</w:tbl>`;
  const body = [
    ...(n.before ?? []).map((l) => para(run(l))),
    para(
      `${run("The harbour opens at dawn")}<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="1"/></w:r>${run(" and closes at dusk.")}<w:r><w:rPr><w:rStyle w:val="EndnoteReference"/></w:rPr><w:endnoteReference w:id="1"/></w:r>`,
    ),
    para(
      `<w:commentRangeStart w:id="0"/>${run("Ferries leave every hour.")}<w:commentRangeEnd w:id="0"/><w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr><w:commentReference w:id="0"/></w:r>`,
    ),
    para(`${run("The timetable is in the box.")}<w:r>${shape}</w:r>`),
    table,
    para(run("End of the guide.")),
  ].join("");
  const separators = (kind: string) =>
    `<w:${kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:${kind}><w:${kind} w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:${kind}>`;
  const note = (kind: "footnote" | "endnote", text: string) =>
    `<w:${kind}s xmlns:w="${W}">${separators(kind)}<w:${kind} w:id="1"><w:p><w:r><w:rPr><w:rStyle w:val="${kind === "footnote" ? "FootnoteReference" : "EndnoteReference"}"/></w:rPr><w:${kind}Ref/></w:r>${run(` ${text}`)}</w:p></w:${kind}></w:${kind}s>`;
  const override = (part: string, type: string) =>
    `<Override PartName="/word/${part}.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.${type}+xml"/>`;
  const relation = (id: string, type: string) =>
    `<Relationship Id="${id}" Type="${REL}/${type}" Target="${type}.xml"/>`;
  return zip([
    {
      name: "[Content_Types].xml",
      data: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${override("document", "document.main")}${override("footnotes", "footnotes")}${override("endnotes", "endnotes")}${override("comments", "comments")}</Types>`,
    },
    docxParts([])[1]!,
    {
      name: "word/_rels/document.xml.rels",
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relation("rId1", "footnotes")}${relation("rId2", "endnotes")}${relation("rId3", "comments")}</Relationships>`,
    },
    {
      name: "word/footnotes.xml",
      data: `<?xml version="1.0" encoding="UTF-8"?>${note("footnote", n.footnote)}`,
    },
    {
      name: "word/endnotes.xml",
      data: `<?xml version="1.0" encoding="UTF-8"?>${note("endnote", n.endnote)}`,
    },
    {
      name: "word/comments.xml",
      data: `<?xml version="1.0" encoding="UTF-8"?><w:comments xmlns:w="${W}"><w:comment w:id="0" w:author="${escapeXml(n.comment.author).replace(/"/g, "&quot;")}" w:date="2026-11-26T10:00:00Z" w:initials="XX"><w:p><w:r><w:annotationRef/></w:r>${run(n.comment.text)}</w:p></w:comment></w:comments>`,
    },
    {
      name: "word/document.xml",
      data: `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}" xmlns:r="${REL}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:v="urn:schemas-microsoft-com:vml" mc:Ignorable="wps"><w:body>${body}</w:body></w:document>`,
    },
  ]);
}

/** An old Word (.doc) file: the OLE compound file signature, which the worker cannot read. */
export function oleDoc(): Buffer {
  const bytes = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(bytes);
  return bytes;
}

/**
 * A Word file built to exhaust its reader: about 20 MiB of markup (under the 24 MiB cap) of tiny
 * paragraphs, each a few elements deep, that packs to some 600 KB. mammoth's DOM of it needs
 * gigabytes: in the server's own heap it stalls the event loop, then kills the process.
 */
export function hostileDocx(): Buffer {
  const parts = docxParts([]);
  const main = parts[2]!;
  const paragraphs: string[] = [];
  let size = 0;
  // A few varied letters keep it from packing to almost nothing, as a real bomb's filler would.
  let seed = 1;
  while (size < 20 * 1024 * 1024) {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    const p = `<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>${(seed >>> 8) % 60}</w:t></w:r></w:p>`;
    paragraphs.push(p);
    size += p.length;
  }
  return zip([
    ...parts.slice(0, 2),
    { ...main, data: main.data.replace("<w:body>", `<w:body>${paragraphs.join("")}`) },
  ]);
}

/** A PDF of one page whose content stream is `content`, packed (FlateDecode) unless said. */
export function pdfWithContent(content: string | Buffer, pack = true): Buffer {
  const raw = Buffer.from(content);
  const data = pack ? deflateSync(raw, { level: 9 }) : raw;
  const objects = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
    Buffer.from(
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    ),
    Buffer.concat([
      Buffer.from(`<< /Length ${data.length}${pack ? " /Filter /FlateDecode" : ""} >>\nstream\n`),
      data,
      Buffer.from("\nendstream"),
    ]),
    Buffer.from("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
  ];
  const chunks = [Buffer.from("%PDF-1.4\n")];
  let length = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), o, Buffer.from("\nendobj\n")]);
    chunks.push(chunk);
    length += chunk.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`),
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`,
  ].join("");
  return Buffer.concat([...chunks, Buffer.from(xref)]);
}

/**
 * A PDF built to stall its reader: a content stream of 20 million text operations (140 MB, packed
 * to about 150 KB) that pdf.js works through for a minute or more of CPU.
 */
export const hostilePdf = (): Buffer =>
  pdfWithContent(`BT /F1 12 Tf 72 720 Td ${"(a) Tj ".repeat(20_000_000)}ET`);
