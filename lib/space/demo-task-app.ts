// The small task-list app that shows a space app's whole path without a real model: the local demo
// model writes it when asked for a task app (tests/support/openai-server.ts), and `npm run db:seed`
// publishes it as the "Task board" (scripts/seed-task-board.ts). One module for both, so the demo
// and the seeded app never drift. Plain strings, no imports: the seed, the tests' model server and
// the app may all load it.

/** The entity the app keeps its tasks in. */
export const DEMO_TASK_ENTITY = "Task";

/**
 * Its schema: a title (required) and a done flag; each end user reads and writes only their own
 * tasks until the builder picks another preset.
 */
export const DEMO_TASK_SCHEMA = `${JSON.stringify(
  {
    type: "object",
    properties: { title: { type: "string" }, done: { type: "boolean" } },
    required: ["title"],
    "x-accessControl": { permissions: { read: "creator", write: "creator" } },
  },
  null,
  2,
)}\n`;

/** Where the page lives in the app. */
export const DEMO_TASK_PAGE_PATH = "pages/Home.jsx";

/**
 * The page: who is signed in (with Sign in / Sign out), the tasks newest first, a form to add one,
 * a checkbox to mark one done and a button to delete it; every refusal of the server (an
 * AppClientError) is shown in an alert. Tailwind classes, one column that fits 375 px.
 */
export const DEMO_TASK_PAGE = `import { useEffect, useState } from "react";
import { entities, auth, AppClientError } from "@app/client";

// What went wrong, in words the server chose (AppClientError), or a general sentence.
function messageOf(err) {
  return err instanceof AppClientError ? err.message : "Something went wrong. Please try again.";
}

export default function Home() {
  const [me, setMe] = useState(null);
  const [tasks, setTasks] = useState([]);
  const [loading, setLoading] = useState(true);
  const [title, setTitle] = useState("");
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState("");

  useEffect(() => {
    let live = true;
    (async () => {
      try {
        const user = await auth.me();
        if (live) setMe(user);
        const rows = await entities.Task.list({ sort: "-createdAt", limit: 100 });
        if (live) setTasks(rows);
      } catch (err) {
        // Signed out and the tasks are for signed-in users only: the Sign in button says it all.
        const signedOutRefusal = err instanceof AppClientError && (err.status === 401 || err.status === 403);
        if (live && !signedOutRefusal) setError(messageOf(err));
      } finally {
        if (live) setLoading(false);
      }
    })();
    return () => {
      live = false;
    };
  }, []);

  async function addTask(event) {
    event.preventDefault();
    const text = title.trim();
    if (!text) return;
    setAdding(true);
    setError("");
    try {
      const task = await entities.Task.create({ title: text, done: false });
      setTasks((list) => [task, ...list]);
      setTitle("");
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setAdding(false);
    }
  }

  async function toggleTask(task) {
    setError("");
    try {
      const saved = await entities.Task.update(task.id, { done: !task.done });
      setTasks((list) => list.map((t) => (t.id === saved.id ? saved : t)));
    } catch (err) {
      setError(messageOf(err));
    }
  }

  async function deleteTask(task) {
    setError("");
    try {
      await entities.Task.delete(task.id);
      setTasks((list) => list.filter((t) => t.id !== task.id));
    } catch (err) {
      setError(messageOf(err));
    }
  }

  return (
    <div className="min-h-screen bg-slate-50 text-slate-900">
      <main className="mx-auto max-w-xl px-4 py-8">
        <header className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-3xl font-bold">Task board</h1>
          {me ? (
            <div className="flex flex-wrap items-center gap-3 text-sm">
              <span className="break-all text-slate-700">
                Signed in as <strong className="text-slate-900">{me.fullName || me.email}</strong>
              </span>
              <button
                type="button"
                onClick={() => auth.signOut()}
                className="rounded-md border border-slate-400 bg-white px-3 py-2 font-medium text-slate-900 hover:bg-slate-100"
              >
                Sign out
              </button>
            </div>
          ) : (
            <div className="flex flex-wrap items-center gap-3 text-sm">
              <span className="text-slate-700">You are not signed in.</span>
              <button
                type="button"
                onClick={() => auth.signIn()}
                className="rounded-md bg-blue-700 px-3 py-2 font-medium text-white hover:bg-blue-800"
              >
                Sign in
              </button>
            </div>
          )}
        </header>

        <form onSubmit={addTask} className="mt-6 flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex-1">
            <label htmlFor="new-task" className="block text-sm font-medium text-slate-800">
              New task
            </label>
            <input
              id="new-task"
              value={title}
              onChange={(event) => setTitle(event.target.value)}
              required
              maxLength={200}
              className="mt-1 w-full rounded-md border border-slate-500 bg-white px-3 py-2 text-slate-900"
            />
          </div>
          <button
            type="submit"
            disabled={adding}
            className="rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60"
          >
            Add task
          </button>
        </form>

        <div role="alert" className={error ? "mt-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800" : ""}>
          {error}
        </div>

        <section aria-labelledby="tasks-heading" className="mt-8">
          <h2 id="tasks-heading" className="text-lg font-semibold">
            Tasks
          </h2>
          {loading ? (
            <p className="mt-3 text-slate-700">Loading tasks…</p>
          ) : tasks.length === 0 ? (
            <p className="mt-3 rounded-md border border-dashed border-slate-400 px-4 py-6 text-center text-slate-700">
              No tasks yet
            </p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-200 rounded-md border border-slate-300 bg-white">
              {tasks.map((task) => (
                <li key={task.id} className="flex items-center gap-3 px-4 py-3">
                  <input
                    id={\`task-\${task.id}\`}
                    type="checkbox"
                    checked={Boolean(task.done)}
                    onChange={() => toggleTask(task)}
                    className="h-5 w-5 shrink-0 accent-blue-700"
                  />
                  <label
                    htmlFor={\`task-\${task.id}\`}
                    className={\`min-w-0 flex-1 break-words \${task.done ? "text-slate-600 line-through" : "text-slate-900"}\`}
                  >
                    {task.title}
                  </label>
                  <button
                    type="button"
                    onClick={() => deleteTask(task)}
                    aria-label={\`Delete \${task.title}\`}
                    className="shrink-0 rounded-md px-2 py-1 text-sm font-medium text-red-700 hover:bg-red-50"
                  >
                    Delete
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      </main>
    </div>
  );
}
`;

/** The app's files as the chat writes them: the entity, then the page. */
export const DEMO_TASK_APP = {
  entity: { name: DEMO_TASK_ENTITY, content: DEMO_TASK_SCHEMA },
  page: { path: DEMO_TASK_PAGE_PATH, content: DEMO_TASK_PAGE },
} as const;
