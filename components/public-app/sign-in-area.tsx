import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";
import { publicAppMessages } from "@/lib/messages/public-app";
import { fillTemplate } from "@/lib/text";

/**
 * The top bar's sign-in area of a published app: who is signed in and a way out, or a way in.
 * On neutral surfaces, so it reads on whatever background the builder picked.
 */
export function SignInArea({ appId, email }: { appId: string; email: string | null }) {
  if (email) {
    return (
      <>
        <span className="max-w-40 truncate rounded-md bg-background px-2 py-1 text-sm text-foreground @md:max-w-64">
          {fillTemplate(publicAppMessages.publicSignedInAs, { email })}
        </span>
        <Link href={`/app/${appId}/logout`} className={buttonVariants({ variant: "outline", size: "sm" })}>
          {publicAppMessages.publicLogOut}
        </Link>
      </>
    );
  }
  return (
    <Link href={`/app/${appId}/login`} className={buttonVariants({ variant: "outline", size: "sm" })}>
      {publicAppMessages.publicSignIn}
    </Link>
  );
}
