import fs from "node:fs";
import path from "node:path";
import type { PreviewIssue } from "@/lib/space/preview/types";

// The validation fixtures (tests/fixtures/validation/): clean apps, each a folder of an app's
// files, and broken apps, each a clean app with ONE known defect (broken.json: the edit that
// makes it, and the detector, file and line that must find it). Read by the integration test
// and the bench alike.

const ROOT = path.resolve(import.meta.dirname, "../fixtures/validation");

export type Files = Map<string, string>;

export type BrokenApp = {
  id: string;
  /** syntax, missing-import, hooks, undefined-name, entity-schema or runtime. */
  kind: string;
  /** The clean app it is made from. */
  base: string;
  /** One edit: in `file`, `find` (exactly once) becomes `replace`; a new file when `find` is absent. */
  edit: { file: string; find?: string; replace: string };
  /** The errors the preview reported while it ran this app (the runtime kind). */
  runtimeErrors?: PreviewIssue[];
  expect: { detectorId: string; file: string; line: number };
};

function readTree(dir: string, prefix = ""): Files {
  const files: Files = new Map();
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) for (const [p, c] of readTree(dir, rel)) files.set(p, c);
    else files.set(rel, fs.readFileSync(path.join(dir, rel), "utf8"));
  }
  return files;
}

/** The clean apps by name. */
export function cleanApps(): Map<string, Files> {
  const dir = path.join(ROOT, "clean");
  return new Map(
    fs
      .readdirSync(dir)
      .sort()
      .map((name) => [name, readTree(path.join(dir, name))]),
  );
}

/** The broken apps: each with its files (its clean base with the edit applied). */
export function brokenApps(): (BrokenApp & { files: Files })[] {
  const clean = cleanApps();
  const list = JSON.parse(fs.readFileSync(path.join(ROOT, "broken.json"), "utf8")) as BrokenApp[];
  return list.map((app) => {
    const base = clean.get(app.base);
    if (!base) throw new Error(`${app.id}: no clean app ${app.base}`);
    const files = new Map(base);
    const { file, find, replace } = app.edit;
    if (find === undefined) {
      files.set(file, replace);
    } else {
      const content = files.get(file);
      if (content === undefined) throw new Error(`${app.id}: ${app.base} has no ${file}`);
      const at = content.indexOf(find);
      if (at < 0 || content.indexOf(find, at + 1) >= 0) {
        throw new Error(`${app.id}: the text to replace must be in ${file} exactly once`);
      }
      files.set(file, content.slice(0, at) + replace + content.slice(at + find.length));
    }
    return { ...app, files };
  });
}
