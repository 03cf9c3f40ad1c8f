import type { AppSettings } from "./schemas";

/**
 * A weekly run limit under the daily one: the daily limit could never be reached, so the pair
 * is refused (the server on save, the settings panel as it is typed). Either unset is fine.
 */
export function weeklyBelowDaily(s: Pick<AppSettings, "dailyUserLimit" | "weeklyUserLimit">): boolean {
  return s.dailyUserLimit !== null && s.weeklyUserLimit !== null && s.weeklyUserLimit < s.dailyUserLimit;
}
