import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ToolPagesHeader } from "@/components/editor/tools/tool-pages-header";
import { ToolsCollection } from "@/components/editor/tools/tools-collection";
import { loadEditableApp } from "@/lib/apps/access";
import { toolView } from "@/lib/apps/editor-app";
import { listAppTools } from "@/lib/apps/tools";
import { getPageSession } from "@/lib/auth/page-session";
import { AppError } from "@/lib/errors";
import { messages } from "@/lib/messages";

export const metadata: Metadata = { title: messages.toolsTitle };

/** Loads the app its owner (or an admin) edits; anybody else, or a missing app, gets the 404 page. */
async function editableApp(appId: string) {
  try {
    return await loadEditableApp(await getPageSession(), appId);
  } catch (err) {
    if (err instanceof AppError) notFound();
    throw err;
  }
}

// /build/app/{appId}/tools - the tools collection of a generated app
export default async function ToolsPage({ params }: { params: Promise<{ appId: string }> }) {
  const { app, owner } = await editableApp((await params).appId);
  // Only generated apps have tools.
  if (app.type !== "generated") notFound();
  const tools = await listAppTools(app);
  const appName = app.header.trim() || messages.untitledApp;
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-4 p-4 sm:p-6">
      <ToolPagesHeader appId={app.id} appName={appName} />
      <ToolsCollection
        appId={app.id}
        appName={appName}
        initialTools={tools.map(toolView)}
        maxToolsPerApp={owner.caps.maxToolsPerApp}
      />
    </div>
  );
}
