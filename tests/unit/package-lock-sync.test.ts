import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// `npm install` rewrites package-lock.json when its root entry no longer matches package.json
// (a dependency, the engines): a fresh clone must find them in step, so the lock stays as
// committed. And the Node versions stated in `engines` include the one the tests run on.

const ROOT = path.resolve(import.meta.dirname, "../..");
// The two comparators `engines` uses ("^20.19.0 || >=22.12.0"), read without a dependency.
function satisfies(version: string, range: string): boolean {
  const parse = (v: string) => v.split(".").map(Number) as [number, number, number];
  const atLeast = (a: number[], b: number[]) => {
    for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
    return true;
  };
  const v = parse(version);
  return range.split("||").some((part) => {
    const m = part.trim().match(/^(\^|>=)(\d+\.\d+\.\d+)$/);
    if (!m) throw new Error(`engines: cannot read ${part}`);
    const min = parse(m[2]!);
    return atLeast(v, min) && (m[1] === ">=" || v[0] === min[0]);
  });
}

const read = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), "utf8"));

describe("package.json and package-lock.json", () => {
  const pkg = read("package.json");
  const lockRoot = read("package-lock.json").packages[""];

  it("the lock's root entry has package.json's dependencies and engines", () => {
    expect(lockRoot.dependencies).toEqual(pkg.dependencies);
    expect(lockRoot.devDependencies).toEqual(pkg.devDependencies);
    expect(lockRoot.engines).toEqual(pkg.engines);
  });

  it("engines names the supported Node versions, this one among them", () => {
    expect(satisfies(process.versions.node, pkg.engines.node)).toBe(true);
    expect(satisfies("22.12.0", pkg.engines.node)).toBe(true);
    expect(satisfies("24.0.0", pkg.engines.node)).toBe(true);
    // Below these, dependencies fail (cheerio's parser wants 20.19; pg-boss 22.12).
    expect(satisfies("20.18.0", pkg.engines.node)).toBe(false);
    expect(satisfies("22.11.0", pkg.engines.node)).toBe(false);
  });
});
