import { describe, expect, it } from "vitest";
import { DEMO_TASK_APP } from "@/lib/space/demo-task-app";
import { buildPreview } from "@/lib/space/preview/build";

// The demo task app (what the local demo model writes for a task board, and what the seed
// publishes): a page that does everything through the data client, and that the preview build
// compiles with the rest of the app's files and the data client itself.

const page = DEMO_TASK_APP.page.content;

describe("the demo task app", () => {
  it("imports the data client by its documented name and uses every part the task list needs", () => {
    expect(page).toContain('import { entities, auth, AppClientError } from "@app/client";');
    for (const call of [
      'entities.Task.list({ sort: "-createdAt"',
      "entities.Task.create({ title: text, done: false })",
      "entities.Task.update(task.id, { done: !task.done })",
      "entities.Task.delete(task.id)",
      "auth.me()",
      "auth.signIn()",
      "auth.signOut()",
      "err instanceof AppClientError ? err.message",
    ]) {
      expect(page).toContain(call);
    }
    // What the end user sees and what assistive technology names.
    for (const text of [
      '<label htmlFor="new-task"',
      ">\n              New task\n",
      "Add task",
      "No tasks yet",
      'role="alert"',
      'type="checkbox"',
      ">\n                Sign in\n",
      ">\n                Sign out\n",
    ]) {
      expect(page).toContain(text);
    }
    expect(page).toMatch(/aria-label=\{`Delete \$\{task\.title\}`\}/);
    // The entity: a required title, a done flag, each end user's own tasks.
    expect(JSON.parse(DEMO_TASK_APP.entity.content)).toEqual({
      type: "object",
      properties: { title: { type: "string" }, done: { type: "boolean" } },
      required: ["title"],
      "x-accessControl": { permissions: { read: "creator", write: "creator" } },
    });
  });

  it("builds with the preview build: script and Tailwind stylesheet", async () => {
    const files = new Map([
      [`entities/${DEMO_TASK_APP.entity.name}.json`, DEMO_TASK_APP.entity.content],
      [DEMO_TASK_APP.page.path, page],
    ]);
    const build = await buildPreview(files);
    expect(build.issues).toEqual([]);
    expect(build.ok).toBe(true);
    if (!build.ok) return;
    expect(build.js).toContain("No tasks yet");
    // The data client the build resolves "@app/client" to is bundled with it.
    expect(build.js).toContain("space-runtime:token-request");
    // The page's classes made it into the stylesheet (readable at 375 px: one column below sm).
    for (const cls of [".bg-blue-700", ".text-red-800", ".sm\\:flex-row", ".line-through"]) {
      expect(build.css).toContain(cls);
    }
  });
});
