// The 200-file space app of the all-changes dialog's benchmark (bench/space-changes.ts): pages,
// components and services of a few kB each, deterministic, and the same files after a change that
// touches every one of them (a renamed prop, an edited line, lines added), as one chat answer
// might. Pure: imported by the seeding child and by the bench itself (to know the expected diff).

export const CHANGES_FILES = Number(process.env.BENCH_CHANGES_FILES ?? 200);

const KINDS = ["pages", "components", "services"] as const;

/** The i-th file's path: pages/Page007.jsx, components/Widget008.jsx, services/Service009.js. */
export function filePath(i: number): string {
  const n = String(i).padStart(3, "0");
  const kind = KINDS[i % 3]!;
  return kind === "pages"
    ? `pages/Page${n}.jsx`
    : kind === "components"
      ? `components/Widget${n}.jsx`
      : `services/Service${n}.js`;
}

/** A deterministic stream of pseudo-random numbers per file, so every run stores the same app. */
function random(seed: number) {
  let s = (seed * 2654435761) >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const FIELDS = ["title", "status", "owner", "amount", "dueDate", "notes", "priority", "tags"];

/** The file as the first version has it (about 3-5 kB). `edited`: as the second version has it. */
export function fileContent(i: number, edited: boolean): string {
  const rnd = random(i + 1);
  const name = filePath(i)
    .split("/")[1]!
    .replace(/\.jsx?$/, "");
  const entity = `Item${i % 17}`;
  const label = edited ? "heading" : "title";
  const lines: string[] = [];
  if (filePath(i).startsWith("services/")) {
    lines.push(`import { entities } from "@app/client";`, "");
    for (let f = 0; f < 14; f++) {
      const field = FIELDS[Math.floor(rnd() * FIELDS.length)]!;
      lines.push(
        `/** Lists the ${entity} records by ${field} (${f}). */`,
        `export async function list${entity}By${field}${f}(value, limit = ${10 + f}) {`,
        `  const rows = await entities.${entity}.list({ where: { ${field}: value }, limit });`,
        edited && f % 4 === 0
          ? `  return rows.filter((row) => row.${field} !== undefined && row.archived !== true);`
          : `  return rows.filter((row) => row.${field} !== undefined);`,
        "}",
        "",
      );
    }
    if (edited) lines.push(`export const ${name}Version = 2;`, "");
    return lines.join("\n");
  }
  lines.push(
    `import { useEffect, useState } from "react";`,
    `import { entities } from "@app/client";`,
    "",
    `export default function ${name}({ ${label} = "${name}" }) {`,
    "  const [items, setItems] = useState([]);",
    "  const [loading, setLoading] = useState(true);",
    "  useEffect(() => {",
    `    entities.${entity}.list({ limit: ${20 + (i % 30)} }).then((rows) => {`,
    "      setItems(rows);",
    "      setLoading(false);",
    "    });",
    "  }, []);",
    edited
      ? '  if (loading) return <p className="p-4 text-sm text-muted">Loading…</p>;'
      : "  if (loading) return <p>Loading…</p>;",
    "  return (",
    '    <section className="grid gap-4 p-6">',
    `      <h1 className="text-2xl font-semibold">{${label}}</h1>`,
  );
  for (let r = 0; r < 40; r++) {
    const field = FIELDS[Math.floor(rnd() * FIELDS.length)]!;
    const width = 1 + Math.floor(rnd() * 4);
    lines.push(
      edited && r % 9 === 4
        ? `      <div className="col-span-${width} rounded border p-2" data-field="${field}">{items[${r}]?.${field} ?? "-"}</div>`
        : `      <div className="col-span-${width} p-2" data-field="${field}">{items[${r}]?.${field}}</div>`,
    );
  }
  if (edited) lines.push(`      <footer className="text-xs">{items.length} ${entity} records</footer>`);
  lines.push("    </section>", "  );", "}", "");
  return lines.join("\n");
}
