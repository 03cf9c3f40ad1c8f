import { describe, expect, it } from "vitest";
import { breaches, cycleEdges, folderGraph, folderOf } from "../../scripts/layers-rule";

// The import rule (scripts/layers-rule.ts) on made-up imports: each kind of breach is reported,
// and the arrows the layers allow are not.

describe("the import rule", () => {
  it("lets imports point down: app → components → lib → db, and db to the kernel", () => {
    expect(
      breaches([
        ["app/home/page.tsx", "components/home/app-list.tsx"],
        ["components/home/app-list.tsx", "lib/apps/schemas.ts"],
        ["lib/apps/create-app.ts", "db/queries/apps.ts"],
        ["db/queries/apps.ts", "lib/errors.ts"],
        ["db/client.ts", "lib/log.ts"],
        ["lib/errors.ts", "lib/messages/common.ts"],
        ["app/api/bench/baseline/route.ts", "db/client.ts"],
      ]),
    ).toEqual([]);
  });

  it("reports every upward import", () => {
    expect(
      breaches([
        ["db/queries/apps.ts", "lib/apps/schemas.ts"],
        ["lib/errors.ts", "lib/apps/schemas.ts"],
        ["lib/apps/create-app.ts", "components/home/app-list.tsx"],
        ["lib/apps/create-app.ts", "app/api/apps/route.ts"],
        ["components/home/app-list.tsx", "app/home/page.tsx"],
        ["app/home/page.tsx", "db/queries/apps.ts"],
      ]),
    ).toEqual([
      "app/home/page.tsx -> db/queries/apps.ts (pages and routes read data through lib)",
      "components/home/app-list.tsx -> app/home/page.tsx (components import no page or route)",
      "db/queries/apps.ts -> lib/apps/schemas.ts (db imports nothing above it)",
      "lib/apps/create-app.ts -> app/api/apps/route.ts (lib imports no component or route)",
      "lib/apps/create-app.ts -> components/home/app-list.tsx (lib imports no component or route)",
      "lib/errors.ts -> lib/apps/schemas.ts (the kernel imports nothing but the kernel)",
    ]);
  });

  it("finds folders that import each other, directly or around a circle, and only those", () => {
    const graph = folderGraph([
      ["lib/apps/a.ts", "lib/plans/b.ts"],
      ["lib/plans/b.ts", "lib/billing/c.ts"],
      ["lib/billing/c.ts", "lib/apps/d.ts"],
      ["lib/runs/e.ts", "lib/apps/a.ts"],
      ["lib/apps/a.ts", "lib/apps/f.ts"],
    ]);
    expect(cycleEdges(graph)).toEqual([
      "lib/apps -> lib/plans",
      "lib/billing -> lib/apps",
      "lib/plans -> lib/billing",
    ]);
  });

  it("counts a file at the root of lib as a folder of its own, and app as one", () => {
    expect(folderOf("lib/messages/auth.ts")).toBe("lib/messages");
    expect(folderOf("lib/errors.ts")).toBe("lib/errors");
    expect(folderOf("app/api/apps/route.ts")).toBe("app");
    expect(folderOf("scripts/seed.ts")).toBeNull();
  });
});
