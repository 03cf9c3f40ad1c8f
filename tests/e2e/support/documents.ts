import { PDFDocument, StandardFonts } from "pdf-lib";

// Real documents made in the test (a PDF by pdf-lib, CSV lists; Word files come from
// tests/support/documents.ts), so the server's type check and the worker's parsers meet what
// builders upload.

/** A PDF with one page per line of text. */
export async function pdfWithText(lines: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const line of lines) {
    const page = pdf.addPage([612, 792]);
    page.drawText(line, { x: 72, y: 720, size: 12, font });
  }
  return Buffer.from(await pdf.save());
}

/** A CSV item list of `rows` products under a header row. */
export function productsCsv(rows: number): Buffer {
  const lines = ["sku,name,colour,price,description"];
  for (let i = 1; i <= rows; i++) {
    lines.push(
      `SKU-${i},Product ${i},${["red", "green", "blue"][i % 3]},${(i % 97) + 0.5},A sturdy product number ${i}`,
    );
  }
  return Buffer.from(`${lines.join("\n")}\n`);
}
