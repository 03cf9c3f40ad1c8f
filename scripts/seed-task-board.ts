import { insertAccountIfMissing } from "../db/queries/accounts";
import { countEntityRecords, insertEntityRecords } from "../db/queries/entity-records";
import { findUserByEmail, insertUser, updateUser } from "../db/queries/users";
import { hashPassword } from "../lib/auth/password";
import { DEMO_TASK_APP } from "../lib/space/demo-task-app";
import type { FileChange } from "../lib/space/schemas";
import { DEMO_IDS } from "./seed-apps";
import { seedPublishedSpaceApp } from "./seed-space-app";

// The Task board demo for npm run db:seed: a published space app whose current version is the
// demo task list (lib/space/demo-task-app.ts, the app the local demo model writes), two end users
// who can sign in at /app/{appId} with a password at once, and a few tasks each of them owns.
// The version is written through the chat's own services (lib/space/chat.ts) and the app is
// published through the builder's publish service, as a builder would; once: an app that has
// versions keeps them. The end users get the demo password back on every run, and the tasks are
// written when the app has none.

/** The demo end users' password (they are end users of the Task board only, not builders). */
export const TASK_BOARD_PASSWORD = "taskboard-demo-2026";

export const TASK_BOARD_USERS = [
  {
    email: "alice@example.com",
    name: "Alice Martin",
    tasks: [
      { title: "Water the plants", done: true },
      { title: "Book the dentist", done: false },
      { title: "Plan the team lunch", done: false },
    ],
  },
  {
    email: "bob@example.com",
    name: "Bob Chen",
    tasks: [
      { title: "Renew the passport", done: false },
      { title: "Fix the bike light", done: true },
    ],
  },
] as const;

const REQUEST = "Build a task board where each of us keeps their own tasks";
const ANSWER =
  "I built a task board: a Task entity and a home page that lists, adds, completes and deletes tasks through the app's data client.";
const CHANGES: FileChange[] = [
  { type: "add_entity", ...DEMO_TASK_APP.entity },
  { type: "add_file", ...DEMO_TASK_APP.page },
];
const TITLES = ["Add the Task entity", "Create the task board page"];

/** A verified end user of the app with the demo password (created, or put back as it was). */
async function seedEndUser(appId: string, person: { email: string; name: string }) {
  const passwordHash = await hashPassword(TASK_BOARD_PASSWORD);
  const existing = await findUserByEmail(appId, person.email);
  const user = existing
    ? ((await updateUser(existing.id, {
        passwordHash,
        emailVerifiedAt: existing.emailVerifiedAt ?? new Date(),
        disabledAt: null,
        name: person.name,
      })) ?? existing)
    : (await insertUser({
        tenantId: appId,
        email: person.email,
        name: person.name,
        passwordHash,
        emailVerifiedAt: new Date(),
      }))!;
  await insertAccountIfMissing({ userId: user.id, accountType: "other", appId });
  return user;
}

/** Seeds the Task board; the seed's summary lines. */
export async function seedTaskBoard(ownerAccountId: string): Promise<string[]> {
  const app = await seedPublishedSpaceApp(ownerAccountId, {
    id: DEMO_IDS.taskBoard,
    content: {
      header: "Task board",
      description: "A small shared task list built by the chat: each end user keeps their own tasks.",
      welcomeMessage: "Sign in to keep your tasks.",
    },
    request: REQUEST,
    answer: ANSWER,
    changes: CHANGES,
    titles: TITLES,
  });

  const users = [];
  for (const person of TASK_BOARD_USERS) users.push({ ...person, user: await seedEndUser(app.id, person) });
  const entity = DEMO_TASK_APP.entity.name;
  if ((await countEntityRecords(app.id, entity)) === 0) {
    // One at a time, so each has its own creation time (the list shows the newest first).
    for (const { user, tasks } of users) {
      for (const task of tasks) {
        await insertEntityRecords(app.id, entity, [{ creatorId: user.id, data: { ...task } }]);
      }
    }
  }
  return [
    `Task board (space app, published): /app/${app.id} (builder: /build/app/${app.id}), ` +
      `${await countEntityRecords(app.id, entity)} Task records`,
    `  its end users: ${TASK_BOARD_USERS.map((u) => u.email).join(" and ")} (password ${TASK_BOARD_PASSWORD}), ` +
      "each sees only their own tasks",
  ];
}
