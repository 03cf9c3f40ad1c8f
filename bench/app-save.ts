import type autocannon from "autocannon";
import { insertApp } from "../db/queries/apps";

// The app-save benchmark: every request is a real auto-save that succeeds. A save must name the
// revision it was based on, so each connection edits an app of its own and takes the next
// revision from each answer, as the editor does; a request that failed early at the revision
// check (409) would measure something cheaper than a builder's save, and fails the run instead.

/** One app and what its connection knows of it. */
export type SaveSlot = { appId: string; revision: number; saves: number; failure?: string };

// What a builder's app holds when they edit it: texts, three fields used by the instructions,
// examples. The save validates and checks all of it, not only the key that changed.
const CONTENT = {
  header: "Trip planner",
  description: "Plans a trip for you.",
  fields: [
    { name: "destination", label: "Where to?", type: "text", required: true, placeholder: "Lisbon" },
    {
      name: "season",
      label: "When?",
      type: "select",
      options: ["Spring", "Summer", "Autumn", "Winter"].map((label) => ({ label, iconUrl: null })),
    },
    { name: "notes", label: "Anything else?", type: "long_text" },
  ],
  examples: ["A weekend in Lisbon", "Two weeks in Japan in spring", "Skiing in the Alps"],
  inputLabel: "Your trip",
  inputPlaceholder: "Where and when",
  welcomeMessage: "Tell me about your trip.",
  ctaMessage: "Want a full itinerary?",
  ctaButton: "Get it",
  ctaLink: "https://example.com/itinerary",
  gptPrompt:
    "You are a travel planner. Plan a trip to [destination] in [season]. Take [notes] into account. " +
    "Suggest a day-by-day plan with places to stay, to eat and to see, and a rough budget.",
  appBuilderVersion: 4,
};

export async function seedSaveApps(
  ownerAccountId: string,
  count: number,
  label: string,
): Promise<SaveSlot[]> {
  const slots: SaveSlot[] = [];
  for (let i = 0; i < count; i++) {
    const app = await insertApp({
      ownerAccountId,
      header: `${CONTENT.header} (${label} ${i + 1})`,
      content: CONTENT,
    });
    slots.push({ appId: app.id, revision: app.revision, saves: 0 });
  }
  return slots;
}

/** The auto-save a builder's typing makes: the one key that changed (a partial object of app fields). */
export function saveBody(slot: SaveSlot): string {
  return JSON.stringify({
    baseRevision: slot.revision,
    app: {
      description: `Plans a trip for you: where to stay, what to eat and see (edit ${slot.saves + 1}).`,
    },
  });
}

/**
 * autocannon's setupClient for one load: connection i saves to slots[i] and tracks its revision
 * from the answers. One slot per connection, so no two connections ever race on an app.
 */
export function saveClients(
  slots: SaveSlot[],
  pathOf: (appId: string) => string,
  headers: Record<string, string>,
): (client: autocannon.Client) => void {
  let next = 0;
  return (client) => {
    const slot = slots[next++];
    if (!slot) throw new Error(`more connections than apps to save (${slots.length})`);
    client.setRequests([
      {
        method: "PATCH",
        path: pathOf(slot.appId),
        headers: { ...headers, "content-type": "application/json" },
        // Built again before every request, after the previous answer was read.
        setupRequest: (req) => ({ ...req, body: saveBody(slot) }),
        onResponse: (status, body) => recordAnswer(slot, status, body),
      },
    ]);
  };
}

export function recordAnswer(slot: SaveSlot, status: number, body: string): void {
  if (status !== 200) {
    slot.failure ??= `${status}: ${body.slice(0, 300)}`;
    return;
  }
  const { revision } = JSON.parse(body) as { revision: number };
  if (revision !== slot.revision + 1) slot.failure ??= `revision went from ${slot.revision} to ${revision}`;
  slot.revision = revision;
  slot.saves++;
}

export function slotFailures(slots: SaveSlot[]): string | null {
  const failed = slots.filter((s) => s.failure);
  return failed.length ? failed.map((s) => `app ${s.appId}: ${s.failure}`).join("\n") : null;
}
