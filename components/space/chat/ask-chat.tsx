"use client";

import { createContext, useContext } from "react";

/**
 * Sends a message to the space app's chat, as if typed, and shows the chat: how a panel asks for
 * a change only the assistant makes (the Database panel's access presets). False when
 * the chat is busy with another answer.
 */
export type AskChat = (text: string) => boolean;

export const AskChatContext = createContext<AskChat | null>(null);

/** The chat of the space app whose panel this is; null outside a space app's editor. */
export const useAskChat = () => useContext(AskChatContext);
