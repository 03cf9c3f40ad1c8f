import { findAppById, upsertDemoApp, upsertDemoRecords } from "../db/queries/apps";
import { countVersions } from "../db/queries/space-versions";
import type { App } from "../db/schema";
import { setPublished } from "../lib/apps/publish";
import { AppContent, AppSettings } from "../lib/apps/schemas";
import { presetStyle } from "../lib/apps/style-presets";
import { finishAnswer, startExchange } from "../lib/space/chat";
import type { FileChange } from "../lib/space/schemas";

// A published demo space app for npm run db:seed, made as a builder makes one: the app starts as a
// draft, its first version is one request and one answer written through the chat's own services
// (lib/space/chat.ts), then it is published through the builder's publish service. Once: an app
// that has versions keeps them (and its status), so running the seed again changes nothing.

export type DemoSpaceApp = {
  id: string;
  content: { header: string; description: string; welcomeMessage: string };
  request: string;
  answer: string;
  changes: FileChange[];
  /** Each change's action title, in order. */
  titles: string[];
};

export async function seedPublishedSpaceApp(ownerAccountId: string, demo: DemoSpaceApp): Promise<App> {
  const content = AppContent.parse(demo.content);
  const before = await findAppById(demo.id);
  await upsertDemoApp({
    id: demo.id,
    ownerAccountId,
    type: "space",
    status: before?.status ?? "draft",
    header: content.header,
    content,
  });
  await upsertDemoRecords(demo.id, presetStyle("light"), AppSettings.parse({}));
  const app = (await findAppById(demo.id))!;
  if ((await countVersions(app.id)) === 0) {
    const started = await startExchange(app, ownerAccountId, { user: { content: demo.request } });
    await finishAnswer(app, ownerAccountId, started.answer.id, {
      status: "complete",
      content: demo.answer,
      actions: demo.changes.map((c, i) => ({
        title: demo.titles[i] ?? "",
        type: c.type,
        file: c.type === "add_entity" ? `entities/${c.name}.json` : "path" in c ? c.path : "",
        content: "content" in c ? c.content : "",
        isComplete: true,
        isTruncated: false,
      })),
      changes: demo.changes,
      userRequest: demo.request,
      description: demo.titles.join(", "),
    });
  }
  await setPublished(app, "active");
  return (await findAppById(demo.id))!;
}
