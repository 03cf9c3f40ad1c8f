import { messages } from "@/lib/messages";

/** Whether a message was made from a catalogue template ("... live tools ({n}) ..." with any {n}). */
export function fromTemplate(message: string, template: string): boolean {
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(
    `^${template
      .split(/\{\w+\}/)
      .map(literal)
      .join(".+?")}$`,
  ).test(message);
}

/** The server refused an activation: no header, or the plan's live tool limit (which an upgrade lifts). */
export function activationRefusal(message: string): "header" | "liveTools" | null {
  if (message === messages.toolNeedsHeader) return "header";
  if (fromTemplate(message, messages.liveToolLimit)) return "liveTools";
  return null;
}
