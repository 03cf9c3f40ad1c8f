import path from "node:path";

// The local model server's answer to a repair request (lib/validation/repair-prompt.ts): it fixes
// what it can fix for sure, and gives back only the files it changed, whole, as the prompt asks.
//  - an undefined name ('x' is not defined.): imported from the file that exports it, else the
//    closest name the file declares or imports (a typo, a renamed setter or component);
//  - an import that resolves to nothing: a relative one points to the closest file of its folder
//    among the app's paths; a package the app cannot load is dropped when nothing else names it.
// Anything else is left as it is: the repair loop reports it unresolved.

type Issue = { file: string; line: number | null; detectorId: string; message: string };

function parseRequest(prompt: string) {
  const block = (tag: string) =>
    (new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n?</${tag}>`).exec(prompt)?.[1] ?? "").split("\n").filter(Boolean);
  const issues: Issue[] = [];
  for (const line of block("issues")) {
    const m = /^(.+?)(?::(\d+))? \[([\w-]+)\] (.*)$/.exec(line);
    if (m) issues.push({ file: m[1]!, line: m[2] ? Number(m[2]) : null, detectorId: m[3]!, message: m[4]! });
  }
  const files = new Map<string, string>();
  for (const m of prompt.matchAll(/<file path="([^"]+)">\n([\s\S]*?)<\/file>(?=\n<file |$)/g)) {
    files.set(m[1]!, m[2]!);
  }
  // "services/format.js exports: formatNumber, default Badge"
  const exports = new Map<string, string[]>();
  const paths = block("paths").map((line) => {
    const [p, names] = line.split(" exports: ");
    exports.set(p!, names ? names.split(", ") : []);
    return p!;
  });
  return { issues, paths, exports, files };
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

const commonPrefix = (a: string, b: string) => {
  let n = 0;
  while (n < a.length && a[n] === b[n]) n++;
  return n;
};

/** The name among `names` closest to `wanted`: a spelling 2 edits away, or one sharing 5 first letters. */
function closest(wanted: string, names: Iterable<string>): string | null {
  let best: { name: string; score: number } | null = null;
  for (const name of names) {
    if (name === wanted) continue;
    const d = distance(wanted, name);
    const ok = d <= 2 || commonPrefix(wanted, name) >= 5;
    if (ok && (!best || d < best.score)) best = { name, score: d };
  }
  return best?.name ?? null;
}

/** The names a file declares or imports. */
function declaredNames(content: string): Set<string> {
  const names = new Set<string>();
  const decl =
    /\b(?:const|let|var|function|class)\s+([A-Za-z_$][\w$]*)|\bimport\s+([A-Za-z_$][\w$]*)|[{,]\s*([A-Za-z_$][\w$]*)\s*(?=[,}=])|\[\s*([A-Za-z_$][\w$]*)\s*,\s*([A-Za-z_$][\w$]*)\s*\]|\(\s*([A-Za-z_$][\w$]*)\s*\)\s*=>/g;
  for (const m of content.matchAll(decl)) for (const g of m.slice(1)) if (g) names.add(g);
  return names;
}

/** `import { name } from "<the file that exports it>";` after the file's imports, or null. */
function importOf(
  file: string,
  content: string,
  name: string,
  exports: Map<string, string[]>,
): string | null {
  const from = [...exports].find(([, names]) => names.includes(name))?.[0];
  if (!from || from === file) return null;
  let relative = path.posix.relative(path.posix.dirname(file), from).replace(/\.[^./]+$/, "");
  if (!relative.startsWith(".")) relative = `./${relative}`;
  const lines = content.split("\n");
  let after = 0;
  lines.forEach((l, i) => {
    if (/^import\b/.test(l)) after = i + 1;
  });
  lines.splice(after, 0, `import { ${name} } from "${relative}";`);
  return lines.join("\n");
}

function fixUndefined(file: string, content: string, issue: Issue, exports: Map<string, string[]>): string {
  const name = /^'([\w$]+)' is not defined/.exec(issue.message)?.[1];
  if (!name) return content;
  const imported = importOf(file, content, name, exports);
  if (imported) return imported;
  const other = closest(name, declaredNames(content));
  if (!other) return content;
  const lines = content.split("\n");
  const at = issue.line ? issue.line - 1 : -1;
  const word = new RegExp(`(?<![\\w$.])${name.replace(/\$/g, "\\$")}(?![\\w$])`, "g");
  if (at >= 0 && at < lines.length) lines[at] = lines[at]!.replace(word, other);
  else return content.replace(word, other);
  return lines.join("\n");
}

function fixImport(file: string, content: string, issue: Issue, paths: string[]): string {
  // The build's words (lib/space/preview/build.ts): a file of the app, or a package, it cannot find.
  const spec =
    /^(\S+) was not found among the app's files/.exec(issue.message)?.[1] ??
    /^(\S+) cannot be imported in the preview/.exec(issue.message)?.[1];
  if (!spec) return content;
  const importLine = new RegExp(
    `^import[^\\n]*["']${spec.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["'];?[ \\t]*\\n`,
    "m",
  );
  if (!spec.startsWith(".")) {
    const imported = /^import\s+([\w$]+)/m.exec(importLine.exec(content)?.[0] ?? "")?.[1];
    const rest = content.replace(importLine, "");
    return imported && new RegExp(`\\b${imported}\\b`).test(rest) ? content : rest;
  }
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
  const dir = path.posix.dirname(target);
  const base = path.posix.basename(target);
  const siblings = paths
    .filter((p) => path.posix.dirname(p) === dir)
    .map((p) => path.posix.basename(p).replace(/\.[^.]+$/, ""));
  const found =
    siblings.find((s) => s.startsWith(base) || base.startsWith(s)) ??
    siblings.find((s) => commonPrefix(s, base) >= 3);
  if (!found) return content;
  const relative = path.posix.relative(path.posix.dirname(file), path.posix.join(dir, found));
  const next = relative.startsWith(".") ? relative : `./${relative}`;
  return content.replace(`"${spec}"`, `"${next}"`).replace(`'${spec}'`, `'${next}'`);
}

/** The answer to a repair prompt (the user message of a request whose instructions start with REPAIR_MARKER). */
export function demoRepair(prompt: string): string {
  const { issues, paths, exports, files } = parseRequest(prompt);
  const out: string[] = [];
  for (const [file, original] of files) {
    let content = original;
    for (const issue of issues.filter((i) => i.file === file)) {
      if (issue.detectorId === "no-undef") content = fixUndefined(file, content, issue, exports);
      else if (issue.detectorId === "build") content = fixImport(file, content, issue, paths);
    }
    if (content !== original) out.push(`<action type="edit_file" path="${file}">\n${content}</action>`);
  }
  return out.length
    ? ["Here are the repaired files.", ...out].join("\n")
    : "I could not repair these issues for sure, so I changed nothing.";
}
