import Link from "next/link";
import { messages } from "@/lib/messages";

/**
 * Shown where plans are offered while payments are off (no Stripe): nothing can be bought, so
 * say who can change a plan; an administrator gets the way there.
 */
export function PlansByAdministrator({ isAdmin }: { isAdmin: boolean }) {
  return (
    <div
      data-testid="plans-by-administrator"
      className="grid justify-items-center gap-1 rounded-md border border-border bg-muted/50 px-4 py-3 text-center text-sm"
    >
      <p>{messages.plansByAdministrator}</p>
      {isAdmin && (
        <Link href="/admin/builders" className="font-medium underline underline-offset-4">
          {messages.plansByAdministratorLink}
        </Link>
      )}
    </div>
  );
}
