import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as analyticsRoute from "@/app/api/apps/[appId]/analytics/route";
import * as runsRoute from "@/app/api/apps/[appId]/analytics/runs/route";
import { db } from "@/db/client";
import { insertApp, insertTool } from "@/db/queries/apps";
import { findRun } from "@/db/queries/runs";
import { type App, apps, toolRuns, tools, users } from "@/db/schema";
import { getAppAnalytics } from "@/lib/analytics/analytics";
import { lastDays, todayUtc } from "@/lib/analytics/range";
import type { AnalyticsRunsPage, AppAnalytics } from "@/lib/analytics/schemas";
import { ANALYTICS_MAX_DAYS, ANALYTICS_RUNS_PAGE } from "@/lib/constants";
import { messages } from "@/lib/messages";
import { RUN_ID_HEADER } from "@/lib/runs/schemas";
import { fillTemplate } from "@/lib/text";
import { createBuilder, createEndUser, createPublishedApp } from "../support/factories";
import { call } from "../support/http";
import { openAiServerEnv, startOpenAiServer } from "../support/openai-server";
import { eventually, run } from "../support/runs";

// Analytics of an app against runs inserted here (the counters are kept by triggers on tool_runs,
// so every insert, update and delete below goes through them), read through the real routes.
// lib/env reads the environment once: the model server's variables are set first.
const server = await startOpenAiServer();
for (const name of ["OPENAI_API_KEY", "AI_DEFAULT_MODEL"]) delete process.env[name];
Object.assign(process.env, openAiServerEnv(server));
afterAll(() => server.close());

type Builder = Awaited<ReturnType<typeof createBuilder>>;
type RunValues = Partial<typeof toolRuns.$inferInsert> & { at: string };

async function addRun(appId: string, r: RunValues) {
  const { at, ...rest } = r;
  const [row] = await db()
    .insert(toolRuns)
    .values({
      appId,
      kind: "visitor",
      subject: `visitor:${crypto.randomUUID()}`,
      inputs: { input: "hello" },
      output: "an answer",
      model: "gpt-4o-mini",
      status: "success",
      promptTokens: 10,
      completionTokens: 20,
      costUsd: 0.01,
      costKnown: true,
      createdAt: new Date(at),
      ...rest,
    })
    .returning();
  return row!;
}

async function getAnalytics(appId: string, who: { token: string }, query = "") {
  return call<AppAnalytics & { error?: { code: string; message: string } }>(analyticsRoute.GET, {
    method: "GET",
    path: `/api/apps/${appId}/analytics${query}`,
    params: { appId },
    token: who.token,
  });
}

async function getRuns(appId: string, who: { token: string }, query = "") {
  return call<AnalyticsRunsPage & { error?: { code: string; message: string } }>(runsRoute.GET, {
    method: "GET",
    path: `/api/apps/${appId}/analytics/runs${query}`,
    params: { appId },
    token: who.token,
  });
}

const dayOf = (a: AppAnalytics, day: string) => a.days.find((d) => d.day === day)!;

/**
 * The counters equal what the app's runs say when counted from scratch: per day, tool, kind,
 * status and demo flag; distinct subjects per day; each subject's last day.
 */
async function expectCountersMatchRuns(appId: string) {
  const { rows } = await db().execute<{ what: string; n: number }>(sql`
    WITH runs AS (SELECT * FROM tool_runs WHERE app_id = ${appId}),
    want_days AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, tool_id, kind, status, is_demo, count(*)::int AS runs,
        sum(coalesce(prompt_tokens, 0))::bigint AS p, sum(coalesce(completion_tokens, 0))::bigint AS c,
        sum(cost_usd) AS cost, (count(*) FILTER (WHERE NOT cost_known))::int AS unpriced
      FROM runs GROUP BY 1, 2, 3, 4, 5),
    have_days AS (
      SELECT day, tool_id, kind, status, is_demo, runs, prompt_tokens, completion_tokens, cost_usd, unpriced_runs
      FROM analytics_run_days WHERE app_id = ${appId} AND runs <> 0),
    want_subjects AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(DISTINCT subject)::int AS n
      FROM runs WHERE kind <> 'preview' GROUP BY 1),
    have_subjects AS (SELECT day, subjects FROM analytics_days WHERE app_id = ${appId} AND subjects <> 0),
    want_last AS (
      SELECT hashtextextended(subject, 0) AS h, max((created_at AT TIME ZONE 'UTC')::date) AS d
      FROM runs WHERE kind <> 'preview' GROUP BY 1),
    have_last AS (SELECT subject_hash, last_day FROM analytics_subjects WHERE app_id = ${appId})
    SELECT 'days' AS what, (SELECT count(*) FROM ((TABLE want_days EXCEPT TABLE have_days)
      UNION ALL (TABLE have_days EXCEPT TABLE want_days)) x)::int AS n
    UNION ALL SELECT 'subjects', (SELECT count(*) FROM ((TABLE want_subjects EXCEPT TABLE have_subjects)
      UNION ALL (TABLE have_subjects EXCEPT TABLE want_subjects)) x)::int
    UNION ALL SELECT 'last days', (SELECT count(*) FROM ((TABLE want_last EXCEPT TABLE have_last)
      UNION ALL (TABLE have_last EXCEPT TABLE want_last)) x)::int`);
  expect(rows).toEqual([
    { what: "days", n: 0 },
    { what: "subjects", n: 0 },
    { what: "last days", n: 0 },
  ]);
}

async function publishedApp(owner: Builder, type: App["type"] = "tool") {
  return insertApp({ ownerAccountId: owner.account.accountId, status: "active", header: "Stats App", type });
}

describe("GET /api/apps/{appId}/analytics: figures", () => {
  it("counts runs by UTC day, fills empty days, and keeps to the range's bounds", async () => {
    const owner = await createBuilder();
    const app = await publishedApp(owner);
    // Just outside the range on both sides.
    await addRun(app.id, { at: "2026-02-28T23:59:59.999Z" });
    await addRun(app.id, { at: "2026-03-06T00:00:00.000Z" });
    // The first and the last instant of the range, and a day's two ends.
    await addRun(app.id, { at: "2026-03-01T00:00:00.000Z" });
    await addRun(app.id, { at: "2026-03-02T23:59:59.999Z" });
    await addRun(app.id, { at: "2026-03-03T00:00:00.000Z" });
    await addRun(app.id, {
      at: "2026-03-05T23:59:59.999Z",
      promptTokens: 100,
      completionTokens: 1,
      costUsd: 0.5,
    });

    const res = await getAnalytics(app.id, owner, "?from=2026-03-01&to=2026-03-05");
    expect(res.status).toBe(200);
    const a = res.json;
    expect(a.range).toEqual({ from: "2026-03-01", to: "2026-03-05", days: 5 });
    expect(a.days.map((d) => [d.day, d.runs])).toEqual([
      ["2026-03-01", 1],
      ["2026-03-02", 1],
      ["2026-03-03", 1],
      ["2026-03-04", 0],
      ["2026-03-05", 1],
    ]);
    expect(a.totals.runs).toBe(4);
    expect(a.totals.tokens).toBe(3 * 30 + 101);
    expect(a.totals.promptTokens).toBe(130);
    expect(a.totals.costUsd).toBeCloseTo(0.53, 6);
    expect(dayOf(a, "2026-03-05")).toMatchObject({ tokens: 101, costUsd: 0.5 });
    expect(dayOf(a, "2026-03-04")).toEqual({
      day: "2026-03-04",
      runs: 0,
      demoRuns: 0,
      users: 0,
      signups: 0,
      tokens: 0,
      costUsd: 0,
    });
    // The recent runs keep to the same bounds, newest first.
    expect(a.recentRuns.runs.map((r) => r.createdAt)).toEqual([
      "2026-03-05T23:59:59.999Z",
      "2026-03-03T00:00:00.000Z",
      "2026-03-02T23:59:59.999Z",
      "2026-03-01T00:00:00.000Z",
    ]);
    expect(a.recentRuns.nextCursor).toBeNull();
  });

  it("counts unique users per day and over the range: end users by account, visitors by address", async () => {
    const owner = await createBuilder();
    const app = await publishedApp(owner);
    const alice = await createEndUser(app.id);
    const bob = await createEndUser(app.id);
    const aliceRun = (at: string) =>
      addRun(app.id, { at, kind: "end_user", userId: alice.user.id, subject: `user:${alice.user.id}` });
    // Day 1: Alice twice, a visitor; day 2: the same visitor, Bob; day 3: Alice.
    await aliceRun("2026-04-01T08:00:00Z");
    await aliceRun("2026-04-01T20:00:00Z");
    await addRun(app.id, { at: "2026-04-01T09:00:00Z", subject: "visitor:abc" });
    await addRun(app.id, { at: "2026-04-02T09:00:00Z", subject: "visitor:abc" });
    await addRun(app.id, {
      at: "2026-04-02T10:00:00Z",
      kind: "end_user",
      userId: bob.user.id,
      subject: `user:${bob.user.id}`,
    });
    await aliceRun("2026-04-03T10:00:00Z");
    // The builder's own previews count nowhere.
    await addRun(app.id, {
      at: "2026-04-02T11:00:00Z",
      kind: "preview",
      userId: owner.user.id,
      subject: `preview:${owner.user.id}`,
    });

    // A range reaching the app's latest day with a run...
    const all = (await getAnalytics(app.id, owner, "?from=2026-04-01&to=2026-04-03")).json;
    expect(all.days.map((d) => d.users)).toEqual([2, 2, 1]);
    expect(all.days.map((d) => d.runs)).toEqual([3, 2, 1]);
    expect(all.totals.users).toBe(3);
    expect(all.totals.runs).toBe(6);
    expect(all.recentRuns.runs.every((r) => r.kind !== ("preview" as string))).toBe(true);
    expect(
      all.recentRuns.runs.find((r) => r.kind === "end_user" && r.createdAt.startsWith("2026-04-02"))
        ?.userEmail,
    ).toBe(bob.user.email);
    // ...and ranges that end before it (counted from the days) or start after a user's last run.
    expect((await getAnalytics(app.id, owner, "?from=2026-04-01&to=2026-04-02")).json.totals.users).toBe(3);
    expect((await getAnalytics(app.id, owner, "?from=2026-04-01&to=2026-04-01")).json.totals.users).toBe(2);
    expect((await getAnalytics(app.id, owner, "?from=2026-04-02&to=2026-04-02")).json.totals.users).toBe(2);
    expect((await getAnalytics(app.id, owner, "?from=2026-04-03&to=2026-04-30")).json.totals.users).toBe(1);
    expect((await getAnalytics(app.id, owner, "?from=2026-04-02&to=2026-04-30")).json.totals.users).toBe(3);
  });

  it("counts sign-ups of the app's end users per UTC day, not other apps' users or builders", async () => {
    const owner = await createBuilder();
    const app = await publishedApp(owner);
    const other = await createPublishedApp(owner.account.accountId, "Other");
    const signedUp = async (appId: string, at: string) => {
      const u = await createEndUser(appId);
      await db()
        .update(users)
        .set({ createdAt: new Date(at) })
        .where(eq(users.id, u.user.id));
    };
    await signedUp(app.id, "2026-05-10T00:00:00Z");
    await signedUp(app.id, "2026-05-10T23:59:59Z");
    await signedUp(app.id, "2026-05-12T12:00:00Z");
    await signedUp(app.id, "2026-05-13T00:00:00Z"); // after the range
    await signedUp(other.id, "2026-05-10T12:00:00Z");

    const a = (await getAnalytics(app.id, owner, "?from=2026-05-10&to=2026-05-12")).json;
    expect(a.days.map((d) => d.signups)).toEqual([2, 0, 1]);
    expect(a.totals.signups).toBe(3);
    expect(a.totals.runs).toBe(0);
  });

  it("breaks runs down by status and tool, flags demo runs and unpriced models", async () => {
    const owner = await createBuilder();
    const app = await publishedApp(owner, "generated");
    const tool = (title: string, path: string, position: number) =>
      insertTool({ appId: app.id, title, path, position, content: {} });
    const [soup, salad, gone] = [
      await tool("Soup", "soup", 0),
      await tool("", "salad", 1),
      await tool("Gone", "gone", 2),
    ];
    const at = "2026-06-01T12:00:00Z";
    for (let i = 0; i < 3; i++) await addRun(app.id, { at, toolId: soup.id });
    await addRun(app.id, { at, toolId: soup.id, status: "error", error: "provider said 500", output: "" });
    await addRun(app.id, { at, toolId: salad.id, status: "cancelled" });
    await addRun(app.id, { at, toolId: salad.id, status: "aborted", isDemo: true });
    await addRun(app.id, {
      at,
      toolId: gone.id,
      isDemo: true,
      model: "mystery-1",
      costKnown: false,
      costUsd: 0,
    });
    // Deleting a tool keeps its runs (tool_id set null): they move to "Deleted tool".
    await db().delete(tools).where(eq(tools.id, gone.id));

    const a = (await getAnalytics(app.id, owner, "?from=2026-06-01&to=2026-06-01")).json;
    expect(a.statuses).toEqual([
      { status: "success", runs: 4 },
      { status: "error", runs: 1 },
      { status: "cancelled", runs: 1 },
      { status: "aborted", runs: 1 },
    ]);
    expect(a.tools.map((t) => [t.name, t.runs])).toEqual([
      ["Soup", 4],
      ["salad", 2],
      [messages.analyticsDeletedTool, 1],
    ]);
    expect(a.totals).toMatchObject({ runs: 7, demoRuns: 2, unpricedRuns: 1 });
    expect(a.totals.costUsd).toBeCloseTo(0.06, 6);
    expect(dayOf(a, "2026-06-01").demoRuns).toBe(2);
    const failed = a.recentRuns.runs.find((r) => r.status === "error")!;
    expect(failed).toMatchObject({ toolName: "Soup", error: "provider said 500", isDemo: false });
    expect(a.recentRuns.runs.filter((r) => r.isDemo)).toHaveLength(2);
    await expectCountersMatchRuns(app.id);
  });

  it("keeps the counters equal to the runs through finishes, moves, deletions and user deletions", async () => {
    const owner = await createBuilder();
    const app = await publishedApp(owner);
    const eve = await createEndUser(app.id);
    const running = await addRun(app.id, {
      at: "2026-07-01T10:00:00Z",
      status: "running",
      promptTokens: null,
      completionTokens: null,
      costUsd: 0,
      kind: "end_user",
      userId: eve.user.id,
      subject: `user:${eve.user.id}`,
    });
    const other = await addRun(app.id, { at: "2026-07-02T10:00:00Z", subject: "visitor:v1" });
    let a = (await getAnalytics(app.id, owner, "?from=2026-07-01&to=2026-07-02")).json;
    expect(a.statuses.find((s) => s.status === "running")).toEqual({ status: "running", runs: 1 });
    expect(a.totals.tokens).toBe(30);

    // The run finishes (as lib/runs records it): one running fewer, one success more, its tokens.
    await db()
      .update(toolRuns)
      .set({
        status: "success",
        promptTokens: 5,
        completionTokens: 7,
        costUsd: 0.002,
        finishedAt: new Date(),
      })
      .where(eq(toolRuns.id, running.id));
    a = (await getAnalytics(app.id, owner, "?from=2026-07-01&to=2026-07-02")).json;
    expect(a.statuses.map((s) => s.status)).toEqual(["success", "error", "cancelled", "aborted"]);
    expect(a.statuses[0]!.runs).toBe(2);
    expect(a.totals.tokens).toBe(42);
    await expectCountersMatchRuns(app.id);

    // Moved to another day, then the end user deleted (their runs stay, anonymous).
    await db()
      .update(toolRuns)
      .set({ createdAt: new Date("2026-07-02T11:00:00Z") })
      .where(eq(toolRuns.id, running.id));
    await expectCountersMatchRuns(app.id);
    a = (await getAnalytics(app.id, owner, "?from=2026-07-01&to=2026-07-02")).json;
    expect(a.days.map((d) => [d.runs, d.users])).toEqual([
      [0, 0],
      [2, 2],
    ]);
    await db().delete(users).where(eq(users.id, eve.user.id));
    await expectCountersMatchRuns(app.id);
    expect((await getAnalytics(app.id, owner, "?from=2026-07-01&to=2026-07-02")).json.totals.users).toBe(2);

    // A run deleted: counted out, and its subject's last day read again.
    await db().delete(toolRuns).where(eq(toolRuns.id, other.id));
    await expectCountersMatchRuns(app.id);
    a = (await getAnalytics(app.id, owner, "?from=2026-07-01&to=2026-07-02")).json;
    expect([a.totals.runs, a.totals.users]).toEqual([1, 1]);

    // The app deleted: its runs and counters go with it.
    await db().delete(apps).where(eq(apps.id, app.id));
    const { rows } = await db().execute<{ n: number }>(sql`
      SELECT ((SELECT count(*) FROM analytics_run_days WHERE app_id = ${app.id})
        + (SELECT count(*) FROM analytics_subject_days WHERE app_id = ${app.id})
        + (SELECT count(*) FROM analytics_days WHERE app_id = ${app.id})
        + (SELECT count(*) FROM analytics_subjects WHERE app_id = ${app.id}))::int AS n`);
    expect(rows[0]!.n).toBe(0);
  });

  it("counts a run made through the run route, and not the builder's preview", async () => {
    const owner = await createBuilder();
    const app = await insertApp({
      ownerAccountId: owner.account.accountId,
      status: "active",
      header: "Live",
      content: { gptPrompt: "Be brief." },
    });
    const visitor = await run(app.id, { inputs: { input: "Hi there" } });
    expect(visitor.status).toBe(200);
    const preview = await run(app.id, { token: owner.token, inputs: { input: "Testing" } });
    expect(preview.status).toBe(200);
    const recorded = await eventually(
      () => findRun(visitor.headers.get(RUN_ID_HEADER)!),
      (r) => r?.status === "success",
    );
    await eventually(
      () => findRun(preview.headers.get(RUN_ID_HEADER)!),
      (r) => r?.status === "success",
    );

    const a = (await getAnalytics(app.id, owner)).json;
    expect(a.range).toEqual({ ...lastDays(30), days: 30 });
    expect(a.totals.runs).toBe(1);
    expect(a.totals.users).toBe(1);
    expect(a.totals.tokens).toBe((recorded!.promptTokens ?? 0) + (recorded!.completionTokens ?? 0));
    expect(dayOf(a, todayUtc()).runs).toBe(1);
    expect(a.recentRuns.runs).toHaveLength(1);
    expect(a.recentRuns.runs[0]).toMatchObject({
      id: recorded!.id,
      kind: "visitor",
      userEmail: null,
      inputs: { input: "Hi there" },
      output: recorded!.output,
      toolName: "Live",
    });
    await expectCountersMatchRuns(app.id);
  });
});

describe("GET /api/apps/{appId}/analytics/runs: pages", () => {
  it("pages through the range's runs newest first, each once, runs of one millisecond included", async () => {
    const owner = await createBuilder();
    const app = await publishedApp(owner);
    const total = ANALYTICS_RUNS_PAGE * 2 + 3;
    // Pairs in the same millisecond, apart only in microseconds (a JS Date cannot tell them apart).
    await db().execute(sql`
      INSERT INTO tool_runs (app_id, kind, subject, inputs, model, status, created_at)
      SELECT ${app.id}, 'visitor', 'visitor:' || g, jsonb_build_object('input', 'run ' || g), 'm', 'success',
        timestamptz '2026-08-10 12:00:00+00' + (g / 2) * interval '1 minute' + (g % 2) * interval '1 microsecond'
      FROM generate_series(1, ${total}) g`);

    const seen: string[] = [];
    const first = (await getAnalytics(app.id, owner, "?from=2026-08-10&to=2026-08-10")).json.recentRuns;
    expect(first.runs).toHaveLength(ANALYTICS_RUNS_PAGE);
    seen.push(...first.runs.map((r) => r.inputs.input as string));
    let cursor = first.nextCursor;
    let pages = 1;
    while (cursor) {
      const res = await getRuns(
        app.id,
        owner,
        `?from=2026-08-10&to=2026-08-10&cursor=${encodeURIComponent(cursor)}`,
      );
      expect(res.status).toBe(200);
      seen.push(...res.json.runs.map((r) => r.inputs.input as string));
      cursor = res.json.nextCursor;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: total }, (_, i) => `run ${total - i}`));
  });

  it("refuses a cursor that is not one", async () => {
    const owner = await createBuilder();
    const app = await publishedApp(owner);
    const res = await getRuns(app.id, owner, "?cursor=2026-01-01_nope");
    expect(res.status).toBe(400);
    expect(res.json.error!.code).toBe("INVALID_INPUT");
  });
});

describe("analytics: who and when", () => {
  it("refuses a draft app with the spec's message, on both routes", async () => {
    const owner = await createBuilder();
    const app = await insertApp({
      ownerAccountId: owner.account.accountId,
      status: "draft",
      header: "Draft",
    });
    for (const res of [await getAnalytics(app.id, owner), await getRuns(app.id, owner)]) {
      expect(res.status).toBe(400);
      expect(res.json.error).toEqual({ code: "APP_NOT_PUBLISHED", message: messages.analyticsNotPublished });
    }
    // Admins too: the rule is about the app, not the caller.
    const admin = await createBuilder({ isAdmin: true });
    expect((await getAnalytics(app.id, admin)).json.error!.code).toBe("APP_NOT_PUBLISHED");
    // The service says the same to the page.
    await expect(getAppAnalytics(app, {})).rejects.toMatchObject({ code: "APP_NOT_PUBLISHED" });
  });

  it("shows another builder no such app, an end user a refusal, and an admin the figures", async () => {
    const owner = await createBuilder();
    const app = await publishedApp(owner);
    await addRun(app.id, { at: "2026-09-01T10:00:00Z" });
    const stranger = await createBuilder();
    const endUser = await createEndUser(app.id);
    const admin = await createBuilder({ isAdmin: true });

    const hidden = await getAnalytics(app.id, stranger, "?from=2026-09-01&to=2026-09-01");
    expect(hidden.status).toBe(404);
    expect(hidden.json.error).toEqual({ code: "NOT_FOUND", message: messages.appNotFound });
    expect((await getRuns(app.id, stranger)).status).toBe(404);
    expect((await getAnalytics(app.id, endUser, "?from=2026-09-01&to=2026-09-01")).status).toBe(403);
    const seen = await getAnalytics(app.id, admin, "?from=2026-09-01&to=2026-09-01");
    expect(seen.status).toBe(200);
    expect(seen.json.totals.runs).toBe(1);
  });

  it("checks the range: real days, start not after end, at most the longest range", async () => {
    const owner = await createBuilder();
    const app = await publishedApp(owner);
    const invalidRange = fillTemplate(messages.analyticsRangeInvalid, { n: ANALYTICS_MAX_DAYS });
    const backwards = await getAnalytics(app.id, owner, "?from=2026-03-02&to=2026-03-01");
    expect(backwards.status).toBe(400);
    expect(backwards.json.error).toEqual({ code: "INVALID_RANGE", message: invalidRange });
    const tooLong = await getAnalytics(app.id, owner, "?from=2025-01-01&to=2026-01-02");
    expect(tooLong.json.error).toEqual({ code: "INVALID_RANGE", message: invalidRange });
    expect((await getAnalytics(app.id, owner, "?from=2025-01-02&to=2026-01-02")).status).toBe(200);
    for (const bad of ["?from=2026-02-30", "?to=tomorrow", "?from=2026-3-1"]) {
      const res = await getAnalytics(app.id, owner, bad);
      expect(res.status).toBe(400);
      expect(res.json.error!.code).toBe("INVALID_INPUT");
    }
    // One end given: the default length up to it, or from it up to today.
    expect((await getAnalytics(app.id, owner, "?to=2026-03-31")).json.range).toEqual({
      from: "2026-03-02",
      to: "2026-03-31",
      days: 30,
    });
  });
});
