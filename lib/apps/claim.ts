import "server-only";
import crypto from "node:crypto";
import { db } from "@/db/client";
import { findAppById, findClaim, findOpenClaim, insertClaim, setAppOwner, useClaim } from "@/db/queries/apps";
import type { App } from "@/db/schema";
import type { Session } from "@/lib/auth/session";
import { appOrigin, env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { safeEqual } from "@/lib/security/codes-crypto";
import { isUuid } from "./access";
import { requireAccount } from "./create-app";
import { loadSettings } from "./editor-app";
import type { ClaimedAppAnswer, ClaimInvitationAnswer } from "./schemas";

// Claim invitations ("The claim feature lets a customer claim a published app by
// invitation"). The code is the invitation's id and a MAC of it: nothing secret is stored, the
// same link is handed out until it is used, and it works once.

const mac = (id: string) =>
  crypto.createHmac("sha256", env().AUTH_SECRET).update(`app-claim:${id}`).digest("base64url");

const codeOf = (id: string) => `${id}.${mac(id)}`;

export const claimPath = (code: string) => `/claim/${encodeURIComponent(code)}`;

/** GET /api/apps/{appId}/settings/claimInvitation: inviteLink and claimCode. */
export async function getClaimInvitation(session: Session, app: App): Promise<ClaimInvitationAnswer> {
  const account = requireAccount(session);
  if (app.status !== "active") throw new AppError("BAD_REQUEST", "inviteNotPublished", "APP_NOT_PUBLISHED");
  if (!(await loadSettings(app.id)).appSettings.isClaimable) {
    throw new AppError("BAD_REQUEST", "claimNotAllowed", "APP_NOT_CLAIMABLE");
  }
  const claim = (await findOpenClaim(app.id)) ?? (await insertClaim(app.id, account.accountId));
  const claimCode = codeOf(claim.id);
  return { inviteLink: `${appOrigin()}${claimPath(claimCode)}`, claimCode };
}

/** The invitation behind a code, if the code is genuine and unused, with its app. */
export async function findInvitation(code: string) {
  const [id, tag] = code.split(".");
  if (!id || !tag || !isUuid(id) || !safeEqual(tag, mac(id))) return null;
  const claim = await findClaim(id);
  if (!claim || claim.usedAt) return null;
  const app = await findAppById(claim.appId);
  return app?.status === "active" ? { claim, app } : null;
}

/** POST /api/apps/claim: the signed-in builder becomes the app's owner; the code is spent. */
export async function claimApp(session: Session, claimCode: string): Promise<ClaimedAppAnswer> {
  const account = requireAccount(session);
  const found = await findInvitation(claimCode);
  if (!found || !(await loadSettings(found.app.id)).appSettings.isClaimable) {
    throw new AppError("BAD_REQUEST", "claimInvalid", "CLAIM_INVALID");
  }
  if (found.app.ownerAccountId === account.accountId)
    throw new AppError("BAD_REQUEST", "claimOwnApp", "CLAIM_OWN_APP");
  await db().transaction(async (tx) => {
    // Only the first of two parallel claims gets the invitation.
    const used = await useClaim(found.claim.id, account.accountId, tx);
    if (!used) throw new AppError("BAD_REQUEST", "claimInvalid", "CLAIM_INVALID");
    await setAppOwner(found.app.id, account.accountId, tx);
  });
  return { appId: found.app.id, header: found.app.header };
}
