"use client";

import { createContext, useContext } from "react";

/**
 * Tells the space app's editor that a panel changed the app's files outside the chat (the Code
 * panel's saves and deletes make versions): it reads the current version again, so the preview
 * shows it. A no-op outside a space app's editor.
 */
export const FilesChangedContext = createContext<() => void>(() => undefined);

export const useFilesChanged = () => useContext(FilesChangedContext);
