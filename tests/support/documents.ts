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
