import "./load-env";
import { and, eq } from "drizzle-orm";
import { closeDb, db } from "../db/client";
import { insertAccountIfMissing } from "../db/queries/accounts";
import { insertApp } from "../db/queries/apps";
import { findUserByEmail, insertUser } from "../db/queries/users";
import { accounts, apps } from "../db/schema";
import { hashPassword } from "../lib/auth/password";
import { ensureAuthSecret, ensureDatabaseUrl } from "./prepare-env";
import { seedDemoRuns } from "./seed-analytics";
import { seedDemoApps } from "./seed-apps";
import { seedDemoDataSources } from "./seed-data-sources";
import { seedOrderStats } from "./seed-order-stats";
import { seedProductCatalog } from "./seed-product-catalog";
import { seedSpaceConversation } from "./seed-space";
import { seedTaskBoard } from "./seed-task-board";

// npm run db:seed - local demo data: an admin builder (who can open /admin/builders), a lite builder, the Demo App with three
// data sources (scripts/seed-data-sources.ts), and one app of each kind with every panel filled
// (scripts/seed-apps.ts); demo runs for analytics (scripts/seed-analytics.ts); the published Task
// board space app with two end users and their tasks (scripts/seed-task-board.ts); the Product
// catalog space app, its products imported from a CSV file, and a demo secret
// (scripts/seed-product-catalog.ts); the Order stats space app whose last version has a bug to
// validate and repair (scripts/seed-order-stats.ts).
export const SEED_PASSWORD = "builder-demo-2026";

async function seedBuilder(email: string, opts: { isAdmin: boolean; plan: string }) {
  const passwordHash = await hashPassword(SEED_PASSWORD);
  const user =
    (await findUserByEmail(null, email)) ??
    (await insertUser({ tenantId: null, email, passwordHash, emailVerifiedAt: new Date() }))!;
  const account = await insertAccountIfMissing({ userId: user.id, accountType: "builder", appId: null });
  await db()
    .update(accounts)
    .set({ isAdmin: opts.isAdmin, plan: opts.plan })
    .where(eq(accounts.accountId, account.accountId));
  return account;
}

async function main() {
  ensureAuthSecret();
  const local = await ensureDatabaseUrl();
  const admin = await seedBuilder("admin@example.com", { isAdmin: true, plan: "moon" });
  await seedBuilder("lite@example.com", { isAdmin: false, plan: "lite" });
  const [existing] = await db()
    .select()
    .from(apps)
    .where(and(eq(apps.ownerAccountId, admin.accountId), eq(apps.header, "Demo App")));
  const app =
    existing ?? (await insertApp({ ownerAccountId: admin.accountId, status: "active", header: "Demo App" }));
  const demos = await seedDemoApps(admin.accountId);
  demos.push(await seedDemoDataSources(app));
  demos.push(await seedDemoRuns(app));
  demos.push(await seedSpaceConversation(admin.accountId, admin.userId));
  demos.push(...(await seedTaskBoard(admin.accountId)));
  demos.push(await seedProductCatalog(admin.accountId, admin.userId));
  demos.push(await seedOrderStats(admin.accountId));
  console.log(
    `Seeded: admin@example.com and lite@example.com (password ${SEED_PASSWORD}); Demo App at /app/${app.id}`,
  );
  for (const line of demos) console.log(`  ${line}`);
  // Without Stripe plans change by hand: admin@example.com opens the admin page.
  console.log(
    "  Plans without payments: /admin/builders (as admin@example.com), or npm run admin -- set-plan lite@example.com explorer",
  );
  await closeDb();
  await local?.stop();
}
void main();
