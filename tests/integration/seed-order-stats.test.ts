import { afterAll, beforeEach, describe, expect, it } from "vitest";
import * as repairRoute from "@/app/api/apps/[appId]/versions/[versionId]/repair/route";
import * as validateRoute from "@/app/api/apps/[appId]/versions/[versionId]/validate/route";
import * as versionsRoute from "@/app/api/apps/[appId]/versions/route";
import { findAppById } from "@/db/queries/apps";
import type { RepairAnswer } from "@/lib/space/repair-schemas";
import type { ValidationAnswer } from "@/lib/space/validate-schemas";
import type { VersionList } from "@/lib/space/versions";
import { DEMO_IDS } from "../../scripts/seed-apps";
import { ORDER_STATS_BROKEN, seedOrderStats } from "../../scripts/seed-order-stats";
import { createBuilder } from "../support/factories";
import { type Answer, call } from "../support/http";
import { demoResponder, openAiServerEnv, startOpenAiServer } from "../support/openai-server";

// The Order stats demo of npm run db:seed: its last version has one bug, which the real
// validation finds at its line and the local demo model (npm run ai:dev's) repairs; seeding again
// changes nothing. lib/env reads the environment once: set it first.
const server = await startOpenAiServer({ responder: demoResponder });
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server));
afterAll(() => server.close());
beforeEach(() => server.reset());

const appId = DEMO_IDS.orderStats;

describe("the seeded Order stats", () => {
  it("has two versions, the last one broken at the line that uses `totl`; validation finds it and the demo model repairs it", async () => {
    const admin = await createBuilder({ isAdmin: true });
    const line = await seedOrderStats(admin.account.accountId);
    expect(line).toContain(`/build/app/${appId}`);
    expect(await findAppById(appId)).toMatchObject({ type: "space", status: "draft", header: "Order stats" });
    await seedOrderStats(admin.account.accountId);

    const listed = await call<Answer & VersionList>(versionsRoute.GET, {
      method: "GET",
      path: `/api/apps/${appId}/versions`,
      params: { appId },
      token: admin.token,
    });
    expect(listed.json.total).toBe(2);
    const versionId = listed.json.current!.id;

    const validated = await call<ValidationAnswer>(validateRoute.POST, {
      path: `/api/apps/${appId}/versions/${versionId}/validate`,
      params: { appId, versionId },
      token: admin.token,
      body: {},
    });
    expect(validated.status).toBe(200);
    const brokenLine = ORDER_STATS_BROKEN.split("\n").findIndex((l) => l.includes("{totl")) + 1;
    expect(validated.json.issues).toEqual([
      expect.objectContaining({ file: "pages/Home.jsx", detectorId: "no-undef", line: brokenLine }),
    ]);

    const repaired = await call<RepairAnswer>(repairRoute.POST, {
      path: `/api/apps/${appId}/versions/${versionId}/repair`,
      params: { appId, versionId },
      token: admin.token,
      body: { initialIssues: validated.json.issues },
    });
    expect(repaired.status).toBe(200);
    expect(repaired.json.unresolvedIssues).toEqual([]);
    expect(repaired.json.repairedFiles).toEqual([
      expect.objectContaining({
        path: "pages/Home.jsx",
        content: ORDER_STATS_BROKEN.replace("{totl.", "{total."),
      }),
    ]);
  });
});
