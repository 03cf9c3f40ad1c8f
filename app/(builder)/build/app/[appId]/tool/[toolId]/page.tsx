import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ToolEditor } from "@/components/editor/tools/tool-editor";
import { findEditableApp, isUuid } from "@/lib/apps/access";
import { loadEditorApp, toolView } from "@/lib/apps/editor-app";
import { findAppTool } from "@/lib/apps/tools";
import { getPageSession } from "@/lib/auth/page-session";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";

type Props = { params: Promise<{ appId: string; toolId: string }> };

/**
 * The tool of a generated app its owner (or an admin) edits. A stranger, a missing app or tool,
 * or an app without tools all get the same 404, so an id tells nobody anything.
 */
async function editableTool({ appId, toolId }: { appId: string; toolId: string }) {
  const session = await getPageSession();
  const found = await findEditableApp(session, appId);
  if (!found || !session || found.app.type !== "generated" || !isUuid(toolId)) notFound();
  const tool = await findAppTool(found.app, toolId);
  if (!tool) notFound();
  return { ...found, session, tool };
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { tool } = await editableTool(await params);
  return { title: fillTemplate(messages.editorTitle, { name: tool.title.trim() || messages.untitledTool }) };
}

// /build/app/{appId}/tool/{toolId} - edits one tool of a generated app
export default async function ToolEditorPage({ params }: Props) {
  const { session, app, owner, tool } = await editableTool(await params);
  const editorApp = await loadEditorApp(app, owner);
  return (
    <ToolEditor
      key={tool.id}
      app={{ ...editorApp, header: editorApp.app.header.trim() || messages.untitledApp }}
      tool={toolView(tool)}
      otherPaths={editorApp.tools.filter((t) => t.toolId !== tool.id).map((t) => t.path)}
      isAdmin={session.account?.isAdmin ?? false}
    />
  );
}
