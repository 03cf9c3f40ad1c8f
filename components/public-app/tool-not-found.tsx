import { editorMessages } from "@/lib/messages/editor";
import { homeMessages } from "@/lib/messages/home";
import { publicAppMessages } from "@/lib/messages/public-app";
import { ToolNotFoundCard } from "./tool-not-found-card";

/** 'Tool with path {path} not found', as the 404 page of the tool routes. */
export function ToolNotFound() {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-muted/40 px-4 py-12">
      <ToolNotFoundCard
        texts={{
          title: editorMessages.toolPathNotFound,
          hint: publicAppMessages.publicToolNotFoundHint,
          openApp: publicAppMessages.publicOpenApp,
          home: homeMessages.notFoundHome,
        }}
      />
    </main>
  );
}
