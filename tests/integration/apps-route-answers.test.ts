import { describe, expect, it } from "vitest";
import { z } from "zod";
import { apiRoutes } from "../../app/api/routes.generated";
import { HTTP_METHODS } from "../../lib/api/openapi";
import { ROUTE_META, type RouteMeta } from "../../lib/api/route";

// The routes of apps (app/api/apps/**) declare what they answer: the success JSON as a zod schema
// (or the stream / file body they send instead), so the API document can state it and every test
// calling a route checks the answer against it (lib/api/route.ts). Each schema must also become
// a JSON schema, which is how the document states it.

const appRoutes = apiRoutes.filter((r) => r.path.startsWith("/api/apps"));

async function operations() {
  const ops: { name: string; meta: RouteMeta | undefined }[] = [];
  for (const r of appRoutes) {
    const mod = (await r.load()) as Record<string, unknown>;
    for (const method of HTTP_METHODS) {
      const handler = mod[method] as { [ROUTE_META]?: RouteMeta } | undefined;
      if (handler) ops.push({ name: `${method} ${r.path}`, meta: handler[ROUTE_META] });
    }
  }
  return ops;
}

describe("the answers of the apps routes", () => {
  it("every operation declares its success answer: a JSON schema, or the stream or file it sends", async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(40);
    // The preview document is a bare handler (no session may be read): the API document describes it by hand.
    // A space app frame's CORS preflight answers 204 with headers alone.
    const preflight = (op: (typeof ops)[number]) =>
      op.name.startsWith("OPTIONS ") && op.meta?.auth === "appToken";
    const undeclared = ops
      .filter((op) => op.meta && !op.meta.response && !op.meta.stream && !preflight(op))
      .map((op) => op.name);
    expect(undeclared).toEqual([]);
  });

  it("every answer schema converts to a JSON schema", async () => {
    for (const { name, meta } of await operations()) {
      if (!meta?.response) continue;
      expect(() => z.toJSONSchema(meta.response!, { io: "output" }), name).not.toThrow();
    }
  });

  it("the routes whose body is a file's bytes name its media types", async () => {
    const uploads = (await operations()).filter((op) => op.meta?.cap === "image");
    expect(uploads.map((op) => op.name).sort()).toEqual([
      "POST /api/apps/{appId}/run/photos",
      "POST /api/apps/{appId}/uploads",
    ]);
    for (const op of uploads) {
      expect(op.meta?.upload?.length, op.name).toBeGreaterThan(0);
      for (const type of op.meta!.upload!) expect(type, op.name).toMatch(/^image\/[a-z0-9.+-]+$/);
    }
  });
});
