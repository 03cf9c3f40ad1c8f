import "./load-env";
import { closeDb } from "../db/client";
import { changeBuilderByEmail, listBuildersForAdmin } from "../lib/accounts/admin-builders";
import { type AdminBuilderAnswer, AdminPlanSchema } from "../lib/accounts/admin-schemas";
import { AppError } from "../lib/errors";
import { messages } from "../lib/messages";
import { PLAN_IDS } from "../lib/plans/catalogue";
import { ensureDatabaseUrl } from "./prepare-env";

// npm run admin - the operator's hand on builder accounts, without payments (a server without
// Stripe has no other way to move a builder off the free plan). Works on DATABASE_URL, else on
// the embedded PostgreSQL (.env is read first, like every command). The admin page
// /admin/builders does the same in the browser.
const USAGE = `Usage:
  npm run admin -- list [search]                              builders (email, plan, admin)
  npm run admin -- set-plan <email> <plan> [--admin true|false]
  npm run admin -- set-admin <email> true|false
Plans: ${PLAN_IDS.join(", ")}`;

type Command =
  | { kind: "list"; search: string }
  | { kind: "change"; email: string; plan?: string; isAdmin?: boolean };

class UsageError extends Error {}

function flag(value: string | undefined): boolean {
  if (value === "true") return true;
  if (value === "false") return false;
  throw new UsageError(`Expected true or false, got ${value ?? "nothing"}.`);
}

function parse(args: string[]): Command {
  const [command, ...rest] = args;
  if (command === "list") return { kind: "list", search: rest[0] ?? "" };
  if (command === "set-plan") {
    const [email, plan, option, value] = rest;
    if (!email || !plan) throw new UsageError("set-plan needs an email and a plan.");
    if (option !== undefined && option !== "--admin") throw new UsageError(`Unknown option ${option}.`);
    return { kind: "change", email, plan, isAdmin: option ? flag(value) : undefined };
  }
  if (command === "set-admin") {
    const [email, value] = rest;
    if (!email) throw new UsageError("set-admin needs an email.");
    return { kind: "change", email, isAdmin: flag(value) };
  }
  throw new UsageError(command ? `Unknown command ${command}.` : "No command given.");
}

const line = (b: AdminBuilderAnswer) => `${b.email}  plan=${b.plan}  admin=${b.isAdmin}`;

async function run(command: Command): Promise<void> {
  if (command.kind === "list") {
    const { builders, more } = await listBuildersForAdmin(command.search);
    for (const b of builders) console.log(line(b));
    if (more) console.log(messages.adminBuildersMore.replace("{n}", String(builders.length)));
    return;
  }
  const plan = command.plan === undefined ? undefined : AdminPlanSchema.safeParse(command.plan);
  if (plan && !plan.success) throw new UsageError(`${messages.adminUnknownPlan}: ${command.plan}.`);
  const changed = await changeBuilderByEmail(command.email, { plan: plan?.data, isAdmin: command.isAdmin });
  console.log(`Saved: ${line(changed)}`);
}

async function main(): Promise<number> {
  let command: Command;
  try {
    command = parse(process.argv.slice(2));
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const local = await ensureDatabaseUrl();
  try {
    await run(command);
    return 0;
  } catch (err) {
    if (!(err instanceof AppError || err instanceof UsageError)) throw err;
    console.error(err instanceof UsageError ? `${err.message}\n\n${USAGE}` : err.message);
    return err instanceof UsageError ? 2 : 1;
  } finally {
    await closeDb();
    await local?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
