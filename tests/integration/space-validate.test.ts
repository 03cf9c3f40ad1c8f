import { afterEach, describe, expect, it } from "vitest";
import * as versionRoute from "@/app/api/apps/[appId]/versions/[versionId]/route";
import * as validateRoute from "@/app/api/apps/[appId]/versions/[versionId]/validate/route";
import type { App } from "@/db/schema";
import { SPACE_FILE_MAX_BYTES } from "@/lib/constants";
import { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";
import { DEMO_TASK_APP } from "@/lib/space/demo-task-app";
import type { FileChange } from "@/lib/space/schemas";
import type { ValidationAnswer } from "@/lib/space/validate-schemas";
import { fillTemplate } from "@/lib/text";
import { validateFiles } from "@/lib/validation/validate";
import { createBuilder } from "../support/factories";
import { call } from "../support/http";
import { createSpaceApp, say } from "../support/space";
import { brokenApps, cleanApps, type Files } from "../support/validation-fixtures";

// Validation of a space app version: every fixture app with one known defect is found at its
// file and line by the detector that owns the defect, and nothing at all is reported on the
// clean apps; the route validates the version it names, takes the preview's runtime errors, and
// answers a clear error past its time limit, the server's event loop free meanwhile.

const broken = brokenApps();
const clean = cleanApps();

describe("the fixture apps", () => {
  it("are at least 20 broken apps (every kind of defect, several of each) and 10 clean ones", () => {
    expect(broken.length).toBeGreaterThanOrEqual(20);
    expect(clean.size).toBeGreaterThanOrEqual(10);
    const kinds = new Map<string, number>();
    for (const app of broken) kinds.set(app.kind, (kinds.get(app.kind) ?? 0) + 1);
    for (const kind of ["syntax", "missing-import", "hooks", "undefined-name", "entity-schema", "runtime"]) {
      expect(kinds.get(kind), kind).toBeGreaterThanOrEqual(4);
    }
  });

  it.each(broken.map((app) => [app.id, app] as const))(
    "%s: its one defect, at its file and line, and nothing else",
    async (_id, app) => {
      const { issues } = await validateFiles(app.files, { runtimeErrors: app.runtimeErrors });
      expect(issues.map(({ detectorId, file, line }) => ({ detectorId, file, line }))).toEqual([app.expect]);
      const [issue] = issues;
      expect(issue!.message.length).toBeGreaterThan(0);
      expect(issue!.componentName).toBe(app.expect.file.replace(/^.*\//, "").replace(/\.[^.]+$/, ""));
      expect(issue!.severity).toBe(app.expect.detectorId === "exhaustive-deps" ? "warning" : "error");
    },
  );

  it.each([...clean.keys()])("%s (clean): no issue", async (name) => {
    const answer = await validateFiles(clean.get(name)!);
    expect(answer.issues).toEqual([]);
    expect(answer.clientExecutionTimeMs).toBeGreaterThanOrEqual(0);
  });

  it("the demo task app (clean): no issue", async () => {
    const files: Files = new Map([
      [DEMO_TASK_APP.page.path, DEMO_TASK_APP.page.content],
      [`entities/${DEMO_TASK_APP.entity.name}.json`, DEMO_TASK_APP.entity.content],
    ]);
    expect((await validateFiles(files)).issues).toEqual([]);
  });
});

describe("the preview's runtime errors", () => {
  it("each on its component's file and the line its words point to; none when they point nowhere; the preview's build errors left to the build", async () => {
    const files: Files = new Map(clean.get("task-tracker")!);
    const report = (
      title: string,
      componentName: string | null,
      source: "build" | "runtime" = "runtime",
    ) => ({
      title,
      details: `Error: ${title}`,
      componentName,
      source,
    });
    const { issues } = await validateFiles(files, {
      runtimeErrors: [
        // pages/Search.jsx line 20: `setShown(all.filter(matches));`, the first call of it.
        report("setShown is not a function", "Search"),
        report("Cannot read properties of null (reading 'focus')", "SearchBox"),
        report("Something odd happened", "Home"),
        report("Widget exploded", "Widget"),
        report("Could not resolve", "Home", "build"),
        // Reported twice by the preview (each render): told once.
        report("Widget exploded", "Widget"),
      ],
    });
    expect(
      issues.map(({ detectorId, file, line, componentName, message }) => ({
        detectorId,
        file,
        line,
        componentName,
        message,
      })),
    ).toEqual([
      { detectorId: "runtime", file: null, line: null, componentName: "Widget", message: "Widget exploded" },
      {
        detectorId: "runtime",
        file: "components/SearchBox.jsx",
        line: 6,
        componentName: "SearchBox",
        message: "Cannot read properties of null (reading 'focus')",
      },
      {
        detectorId: "runtime",
        file: "pages/Home.jsx",
        line: null,
        componentName: "Home",
        message: "Something odd happened",
      },
      {
        detectorId: "runtime",
        file: "pages/Search.jsx",
        line: 20,
        componentName: "Search",
        message: "setShown is not a function",
      },
    ]);
  });
});

describe("code and schemas built to exhaust the checkers", () => {
  it("a schema nested 12,000 deep (under the file size limit): 400, too complex, and the next validation works", async () => {
    let deep = '{"type":"string"}';
    for (let i = 0; i < 12_000; i++) deep = `{"type":"object","properties":{"a":${deep}}}`;
    expect(deep.length).toBeLessThan(SPACE_FILE_MAX_BYTES);
    const err = await validateFiles(new Map([["entities/Deep.json", deep]])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      status: 400,
      code: "VALIDATION_TOO_COMPLEX",
      message: messages.validationTooComplex,
    });
    expect((await validateFiles(clean.get("habit-log")!)).issues).toEqual([]);
  });

  it("a schema 200 deep with a wrong type far down: one issue at its line, its message kept short", async () => {
    let deep = '{"type":"strin"}';
    for (let i = 0; i < 200; i++) deep = `{\n"type":"object",\n"properties":{"a":${deep}}}`;
    const { issues } = await validateFiles(new Map([["entities/Deep.json", deep]]));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ detectorId: "entity-schema", line: 401 });
    expect(issues[0]!.message.length).toBeLessThanOrEqual(1_000);
  });
});

type Builder = Awaited<ReturnType<typeof createBuilder>>;

const validate = (who: Builder, app: App, versionId: string, body: unknown = {}) =>
  call<ValidationAnswer & { error?: { code: string; message: string } }>(validateRoute.POST, {
    path: `/api/apps/${app.id}/versions/${versionId}/validate`,
    params: { appId: app.id, versionId },
    token: who.token,
    body,
  });

/** A fixture app as the chat writes it: files, and entities through their own action. */
function changesOf(files: Files): FileChange[] {
  return [...files].map(([path, content]) => {
    const entity = /^entities\/(.+)\.json$/.exec(path)?.[1];
    return entity ? { type: "add_entity", name: entity, content } : { type: "add_file", path, content };
  });
}

describe("POST /api/apps/{appId}/versions/{versionId}/validate", () => {
  afterEach(() => {
    delete process.env.VALIDATION_TIMEOUT_MS;
  });

  it("validates the version it names, with the runtime errors its preview reported", async () => {
    const builder = await createBuilder();
    const app = await createSpaceApp(builder.account.accountId);
    const hooks = broken.find((a) => a.id === "hooks-in-helper")!;
    const runtime = broken.find((a) => a.id === "runtime-undefined-property")!;
    const v1 = await say(app, builder.account.accountId, {
      user: "Recipes",
      answer: "Done",
      changes: changesOf(hooks.files),
    });
    const fixed = clean.get(hooks.base)!.get(hooks.edit.file)!;
    const v2 = await say(app, builder.account.accountId, {
      user: "Fix it",
      answer: "Fixed",
      changes: [
        { type: "edit_file", path: hooks.edit.file, content: fixed },
        // The version the preview then ran: a row that reads a field of nothing.
        { type: "edit_file", path: runtime.edit.file, content: runtime.files.get(runtime.edit.file)! },
      ],
    });

    const first = await validate(builder, app, v1.versionId!);
    expect(first.status).toBe(200);
    expect(first.json.issues).toEqual([
      expect.objectContaining({ ...hooks.expect, severity: "error", componentName: "Home" }),
    ]);

    const second = await validate(builder, app, v2.versionId!, {
      messageId: v2.answerId,
      messageContent: "Fixed",
      runtimeErrors: runtime.runtimeErrors,
    });
    expect(second.status).toBe(200);
    expect(second.json.issues).toEqual([
      expect.objectContaining({
        ...runtime.expect,
        componentName: "RecipeRow",
        message: runtime.runtimeErrors![0]!.title,
      }),
    ]);
    expect(second.json.clientExecutionTimeMs).toBeGreaterThanOrEqual(0);
  });

  it("answers 404 for a version of another app, 400 for a body that is not one", async () => {
    const builder = await createBuilder();
    const app = await createSpaceApp(builder.account.accountId);
    const other = await createSpaceApp(builder.account.accountId);
    const turn = await say(app, builder.account.accountId, {
      user: "Hi",
      answer: "Done",
      changes: changesOf(clean.get("task-tracker")!),
    });
    const res = await validate(builder, other, turn.versionId!);
    expect(res.status).toBe(404);
    expect(res.json.error?.message).toBe(messages.versionNotFound);
    const bad = await validate(builder, app, turn.versionId!, { runtimeErrors: [{ title: 1 }] });
    expect(bad.status).toBe(400);
  });

  it("runs off the server's event loop, and past its time limit answers 504 with a clear message", async () => {
    const builder = await createBuilder();
    const app = await createSpaceApp(builder.account.accountId);
    // Code that takes the linter a while: a file of about 80 kB of components.
    const component = (i: number) =>
      `export function Part${i}({ items }) {\n  return <ul>{items.map((x) => <li key={x.id} className="p-1">{x.name}{x.count + ${i}}</li>)}</ul>;\n}\n`;
    const big = (n: number) => Array.from({ length: 600 }, (_, i) => component(n * 10_000 + i)).join("");
    const changes: FileChange[] = Array.from({ length: 1 }, (_, n) => ({
      type: "add_file",
      path: `components/Big${n}.jsx`,
      content: big(n),
    }));
    changes.push({
      type: "add_file",
      path: "pages/Home.jsx",
      content: "export default function Home() {\n  return <main>Hi</main>;\n}\n",
    });
    const turn = await say(app, builder.account.accountId, { user: "Big", answer: "Done", changes });
    const versionId = turn.versionId!;

    // While the worker reads the code, another request of the same server is answered first.
    const order: string[] = [];
    const validating = validate(builder, app, versionId).then((r) => {
      order.push("validate");
      return r;
    });
    await new Promise((r) => setTimeout(r, 50));
    const detail = await call(versionRoute.GET, {
      method: "GET",
      path: `/api/apps/${app.id}/versions/${versionId}`,
      params: { appId: app.id, versionId },
      token: builder.token,
    });
    order.push("detail");
    expect(detail.status).toBe(200);
    const done = await validating;
    expect(done.status).toBe(200);
    expect(done.json.issues).toEqual([]);
    expect(order).toEqual(["detail", "validate"]);

    // Far less than reading this code takes, on any machine.
    process.env.VALIDATION_TIMEOUT_MS = "50";
    const timedOut = await validate(builder, app, versionId);
    expect(timedOut.status).toBe(504);
    expect(timedOut.json.error).toEqual({
      code: "VALIDATION_TIMED_OUT",
      message: fillTemplate(messages.validationTimedOut, { seconds: 0.1 }),
    });

    // The worker that ran out of time was ended; the next validation has a new one.
    delete process.env.VALIDATION_TIMEOUT_MS;
    const again = await validate(builder, app, versionId);
    expect(again.status).toBe(200);
  }, 120_000);
});
