import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/db/client";
import { findAppById, setAppStatus } from "@/db/queries/apps";
import { updateUser } from "@/db/queries/users";
import { accounts, appFiles, entityRecords, spaceBlobs, users, versions } from "@/db/schema";
import { passwordLogin } from "@/lib/auth/login";
import { hashPassword } from "@/lib/auth/password";
import { DEMO_TASK_APP } from "@/lib/space/demo-task-app";
import { DEMO_IDS } from "../../scripts/seed-apps";
import { seedTaskBoard, TASK_BOARD_PASSWORD, TASK_BOARD_USERS } from "../../scripts/seed-task-board";
import { createBuilder, randomIp } from "../support/factories";

// The Task board of npm run db:seed: a published space app running the demo task list, two end
// users who sign in with the printed password, and tasks each of them owns; seeding again changes
// nothing but what was undone by hand.

const appId = DEMO_IDS.taskBoard;

async function state() {
  const files = await db()
    .select({ path: appFiles.path, content: spaceBlobs.content })
    .from(appFiles)
    .innerJoin(spaceBlobs, and(eq(spaceBlobs.appId, appFiles.appId), eq(spaceBlobs.hash, appFiles.blobHash)))
    .where(eq(appFiles.appId, appId));
  const endUsers = await db()
    .select({ id: users.id, email: users.email, name: users.name, verified: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.tenantId, appId))
    .orderBy(users.email);
  const records = await db()
    .select({ creatorId: entityRecords.creatorId, data: entityRecords.data })
    .from(entityRecords)
    .where(and(eq(entityRecords.appId, appId), eq(entityRecords.entity, "Task")))
    .orderBy(entityRecords.createdAt);
  return {
    app: await findAppById(appId),
    files: Object.fromEntries(files.map((f) => [f.path, f.content])),
    versions: (await db().select().from(versions).where(eq(versions.appId, appId))).length,
    endUsers,
    endUserAccounts: (await db().select().from(accounts).where(eq(accounts.appId, appId))).length,
    records,
  };
}

describe("the seeded Task board", () => {
  it("is published with the demo task app, two end users who can sign in, and their tasks; a rerun changes nothing", async () => {
    const builder = await createBuilder();
    const lines = await seedTaskBoard(builder.account.accountId);
    expect(lines.join("\n")).toContain(`/app/${appId}`);
    for (const u of TASK_BOARD_USERS) expect(lines.join("\n")).toContain(u.email);
    expect(lines.join("\n")).toContain(TASK_BOARD_PASSWORD);

    const first = await state();
    expect(first.app).toMatchObject({ type: "space", status: "active", header: "Task board" });
    expect(first.app!.ownerAccountId).toBe(builder.account.accountId);
    // The current version is the app the demo model writes, made by the chat's services.
    expect(first.files).toEqual({
      [`entities/${DEMO_TASK_APP.entity.name}.json`]: DEMO_TASK_APP.entity.content,
      [DEMO_TASK_APP.page.path]: DEMO_TASK_APP.page.content,
    });
    expect(first.versions).toBe(1);
    expect(first.endUsers.map((u) => [u.email, u.name])).toEqual(
      TASK_BOARD_USERS.map((u) => [u.email, u.name]),
    );
    expect(first.endUsers.every((u) => u.verified)).toBe(true);
    expect(first.endUserAccounts).toBe(2);
    // Each task belongs to its end user (creatorId = the user's id), oldest first here.
    const idOf = new Map(first.endUsers.map((u) => [u.email, u.id]));
    expect(first.records.map((r) => [r.creatorId, r.data])).toEqual(
      TASK_BOARD_USERS.flatMap((u) => u.tasks.map((t) => [idOf.get(u.email), t])),
    );
    for (const u of TASK_BOARD_USERS) {
      const user = await passwordLogin({ email: u.email, password: TASK_BOARD_PASSWORD, appId }, randomIp());
      expect(user.id).toBe(idOf.get(u.email));
    }

    // By hand: unpublished, a password changed, a user disabled. The seed puts them back and adds nothing.
    const [alice, bob] = TASK_BOARD_USERS;
    await updateUser(idOf.get(alice.email)!, { passwordHash: await hashPassword("another-password-1") });
    await updateUser(idOf.get(bob.email)!, { disabledAt: new Date() });
    await setAppStatus(appId, "draft");

    await seedTaskBoard(builder.account.accountId);
    const again = await state();
    expect(again.app!.status).toBe("active");
    expect(again.files).toEqual(first.files);
    expect(again.versions).toBe(1);
    expect(again.endUsers.map((u) => u.id)).toEqual(first.endUsers.map((u) => u.id));
    expect(again.endUserAccounts).toBe(2);
    expect(again.records).toEqual(first.records);
    for (const u of TASK_BOARD_USERS) {
      await expect(
        passwordLogin({ email: u.email, password: TASK_BOARD_PASSWORD, appId }, randomIp()),
      ).resolves.toMatchObject({ email: u.email });
    }
  });
});
