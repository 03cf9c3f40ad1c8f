import { setAppStatus } from "../../db/queries/apps";
import type { App } from "../../db/schema";
import type { AccessLevel } from "../../lib/app-data/access";
import { issueRuntimeToken } from "../../lib/app-data/runtime-token";
import { loadSession } from "../../lib/auth/session";
import { say } from "./space";

// Space apps whose own code reads and writes data (lib/app-data): entities written through the
// chat's own services, and app tokens issued as the page around the app's frame gets them.

/** An entity schema with these access levels (title required, done a boolean, tags a list of strings). */
export function taskSchema(read: AccessLevel, write: AccessLevel): string {
  return JSON.stringify({
    type: "object",
    properties: {
      title: { type: "string", minLength: 1 },
      done: { type: "boolean", default: false },
      due: { type: "string", format: "date" },
      tags: { type: "array", items: { type: "string" } },
    },
    required: ["title"],
    "x-accessControl": { permissions: { read, write } },
  });
}

/** Writes (or rewrites) an entity of the app as a chat answer would. */
export async function setEntity(app: App, accountId: string, name: string, schema: string): Promise<void> {
  await say(app, accountId, {
    user: `entity ${name}`,
    answer: `The ${name} entity.`,
    changes: [{ type: "add_entity", name, content: schema }],
  });
}

export async function publish(app: App): Promise<void> {
  await setAppStatus(app.id, "active");
}

/** The app token the page around the frame gets for this session token (a builder's or an end user's). */
export async function appTokenFor(appId: string, sessionToken: string): Promise<string> {
  const token = await appTokenOrNone(appId, sessionToken);
  if (!token) throw new Error("no app token for this session");
  return token;
}

/** The same, or null when this session gets none for the app (the app's code then runs as anonymous). */
export async function appTokenOrNone(appId: string, sessionToken: string): Promise<string | null> {
  const session = await loadSession(sessionToken, "cookie");
  return (await issueRuntimeToken(appId, session)).token;
}
