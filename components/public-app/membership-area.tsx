import "server-only";
import type { Session } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { loadMembershipState, membershipApp } from "@/lib/payments/membership";
import { MembershipGate } from "./membership-gate";

/**
 * The top bar's membership part of a published app: for a signed-in end user of an app that
 * asks for a membership they do not have, the gate offering the product. Nothing otherwise.
 */
export async function MembershipArea({ appId, session }: { appId: string; session: Session | null }) {
  if (!session || session.tenantId !== appId) return null;
  let state: Awaited<ReturnType<typeof loadMembershipState>>;
  try {
    state = await loadMembershipState(await membershipApp(appId), session);
  } catch (err) {
    if (err instanceof AppError) return null;
    throw err;
  }
  if (!state.required || state.active || !state.product) return null;
  return <MembershipGate appId={appId} product={state.product} email={session.email} />;
}
