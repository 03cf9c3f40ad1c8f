import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { AppEditor } from "@/components/editor/app-editor";
import { findEditableApp } from "@/lib/apps/access";
import { loadEditorApp } from "@/lib/apps/editor-app";
import { getPageSession } from "@/lib/auth/page-session";
import { messages } from "@/lib/messages";
import { getChatAssistant } from "@/lib/space/assistant";
import { fillTemplate } from "@/lib/text";

type Props = { params: Promise<{ appId: string }> };

/**
 * The app its owner (or an admin) edits; anybody else gets the same 404 as a missing app. Cached
 * per request: the title and the page both ask.
 */
const editableApp = cache(async (appId: string) => {
  const session = await getPageSession();
  const found = await findEditableApp(session, appId);
  if (!found || !session) notFound();
  return { ...found, session };
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { app } = await editableApp((await params).appId);
  return { title: fillTemplate(messages.editorTitle, { name: app.header.trim() || messages.untitledApp }) };
}

// /build/app/{appId} - the app editor; the panel is named in the URL (?panel=texts)
export default async function AppEditorPage({ params }: Props) {
  const { app, owner, session } = await editableApp((await params).appId);
  const editorApp = await loadEditorApp(app, owner);
  // A space app's chat view shows its chat assistant's status (the activate modal).
  const chatAssistant = app.type === "space" ? await getChatAssistant(app) : null;
  // The key starts a fresh editor (fresh savers) when another app is opened in the same layout.
  return (
    <AppEditor
      key={app.id}
      app={editorApp}
      isAdmin={session.account?.isAdmin ?? false}
      chatAssistant={chatAssistant}
    />
  );
}
