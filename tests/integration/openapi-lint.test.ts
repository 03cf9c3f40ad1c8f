import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import * as openApiRouteModule from "../../app/api/openapi.json/route";
import * as registry from "../../app/api/routes.generated";
import { buildOpenApi, openApiSources } from "../../lib/api/openapi";

const ROOT = path.resolve(import.meta.dirname, "../..");
const REDOCLY = path.join(ROOT, "node_modules/.bin/redocly");

type Problem = {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location?: { pointer?: string }[];
};

// The document as a client generator reads it, linted by redocly's recommended rules
// (redocly.yaml at the root). No error may remain; the warnings left are said in docs/api.md.
describe("the API document passes redocly lint", () => {
  it("has no error", async () => {
    const { document } = await buildOpenApi(openApiSources(registry, openApiRouteModule));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-lint-"));
    const file = path.join(dir, "openapi.json");
    fs.writeFileSync(file, JSON.stringify(document, null, 2));
    let stdout: string;
    try {
      // redocly exits 1 when it finds an error: its report is read either way.
      ({ stdout } = await promisify(execFile)(
        REDOCLY,
        [
          "lint",
          file,
          "--config",
          path.join(ROOT, "redocly.yaml"),
          "--format",
          "json",
          "--max-problems",
          "1000",
        ],
        {
          cwd: ROOT,
          maxBuffer: 64 * 1024 * 1024,
          // Offline and quiet: no telemetry, no update check.
          env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        },
      ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? "" })));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const problems = (JSON.parse(stdout) as { problems: Problem[] }).problems;
    const line = (p: Problem) =>
      `${p.severity} ${p.ruleId}: ${p.message} (${p.location?.[0]?.pointer ?? "the document"})`;
    const warnings = problems.filter((p) => p.severity !== "error").map(line);
    if (warnings.length) console.info(`redocly lint warnings:\n${warnings.join("\n")}`);
    expect(problems.filter((p) => p.severity === "error").map(line)).toEqual([]);
  }, 120_000);
});
