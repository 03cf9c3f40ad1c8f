import "server-only";
import type { z } from "zod";
import { findChatAssistant, setChatAssistantStatus } from "@/db/queries/space-chat";
import type { App } from "@/db/schema";
import type { ChatAssistantAnswer } from "./schemas";

// The chat assistant of an app (status active or draft, chatAppId). The editor applies
// a switch optimistically and rolls it back when POST /api/apps/{appId}/chat/activate fails
// ('Failed to activate chat assistant' / 'Failed to deactivate chat assistant').

export type ChatAssistantState = z.infer<typeof ChatAssistantAnswer>;

export async function getChatAssistant(app: App): Promise<ChatAssistantState> {
  const row = await findChatAssistant(app.id);
  return {
    chatAppId: row?.chatAppId ?? null,
    status: row?.status ?? "draft",
    isActive: row?.status === "active",
  };
}

/** POST /api/apps/{appId}/chat/activate: isActive -> chatAppId (the same id every time). */
export async function activateChatAssistant(app: App, isActive: boolean): Promise<ChatAssistantState> {
  const row = await setChatAssistantStatus(app.id, isActive ? "active" : "draft");
  return { chatAppId: row.chatAppId, status: row.status, isActive: row.status === "active" };
}
