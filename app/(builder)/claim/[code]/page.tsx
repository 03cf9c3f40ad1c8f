import type { Metadata } from "next";
import Link from "next/link";
import { ClaimAppButton } from "@/components/claim/claim-app-button";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { findInvitation } from "@/lib/apps/claim";
import { loadSettings } from "@/lib/apps/editor-app";
import { getPageSession } from "@/lib/auth/page-session";
import { messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";

export const metadata: Metadata = { title: messages.claimButton };

function decode(code: string): string {
  try {
    return decodeURIComponent(code);
  } catch {
    return code;
  }
}

/**
 * /claim/{code}: the invitation link an admin copies for a claimable app. The builder sees which app it is and takes it
 * over with one button; the claim itself (single use, ownership) happens in POST /api/apps/claim.
 */
export default async function ClaimPage({ params }: { params: Promise<{ code: string }> }) {
  const claimCode = decode((await params).code);
  const session = await getPageSession();
  const found = await findInvitation(claimCode);
  const claimable = found ? (await loadSettings(found.app.id)).appSettings.isClaimable : false;
  const name = found?.app.header.trim() || messages.untitledApp;
  const ownApp = !!found && found.app.ownerAccountId === session?.account?.accountId;

  return (
    <div className="mx-auto grid w-full max-w-lg p-4 pt-10 sm:p-6 sm:pt-16">
      <Card className="grid gap-4">
        {!found || !claimable ? (
          <>
            <CardTitle>{messages.claimButton}</CardTitle>
            <p role="alert" className="text-sm text-destructive">
              {messages.claimInvalid}
            </p>
            <Button asChild variant="outline" className="justify-self-start">
              <Link href="/home">{messages.claimGoHome}</Link>
            </Button>
          </>
        ) : ownApp ? (
          <>
            <CardTitle>{fillTemplate(messages.claimTitle, { name })}</CardTitle>
            <CardDescription>{messages.claimOwnApp}</CardDescription>
            <Button asChild className="justify-self-start">
              <Link href={`/build/app/${found.app.id}`}>{messages.claimOpenApp}</Link>
            </Button>
          </>
        ) : (
          <>
            <CardTitle>{fillTemplate(messages.claimTitle, { name })}</CardTitle>
            <CardDescription>{messages.claimDescription}</CardDescription>
            <ClaimAppButton claimCode={claimCode} />
          </>
        )}
      </Card>
    </div>
  );
}
