import { BlocksIcon, DatabaseIcon, PaletteIcon, SparklesIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import { buttonVariants } from "@/components/ui/button";
import { getPageSession } from "@/lib/auth/page-session";
import { MAIN_PAGE } from "@/lib/constants";
import { messages } from "@/lib/messages";

export const metadata: Metadata = { title: `${messages.productName}: ${messages.landingTitle}` };

const features = [
  { Icon: BlocksIcon, title: messages.landingFeatureBuildTitle, text: messages.landingFeatureBuildText },
  { Icon: DatabaseIcon, title: messages.landingFeatureDataTitle, text: messages.landingFeatureDataText },
  { Icon: PaletteIcon, title: messages.landingFeatureBrandTitle, text: messages.landingFeatureBrandText },
  { Icon: SparklesIcon, title: messages.landingFeaturePlansTitle, text: messages.landingFeaturePlansText },
];

// The product's front page. Signed-in builders get a way to their apps, never a redirect.
export default async function LandingPage() {
  const session = await getPageSession();
  const builder = session?.tenantId === null;
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-border">
        <div className="mx-auto flex h-14 max-w-5xl items-center gap-3 px-4">
          <Link href="/" className="flex items-center gap-2 font-semibold">
            <BlocksIcon className="size-5" aria-hidden />
            {messages.productName}
          </Link>
          <ThemeToggle className="ml-auto" />
          {builder ? (
            <Link href={MAIN_PAGE} className={buttonVariants({ size: "sm" })}>
              {messages.landingOpenApps}
            </Link>
          ) : (
            <Link href="/login" className={buttonVariants({ variant: "ghost", size: "sm" })}>
              {messages.landingLogIn}
            </Link>
          )}
        </div>
      </header>
      <main className="flex-1">
        <section className="mx-auto grid max-w-5xl gap-6 px-4 py-16 sm:py-24">
          <h1 className="max-w-3xl text-4xl font-semibold tracking-tight text-balance sm:text-5xl">
            {messages.landingTitle}
          </h1>
          <p className="max-w-2xl text-lg text-muted-foreground text-pretty">{messages.landingLead}</p>
          <div className="flex flex-wrap gap-3">
            {builder ? (
              <Link href={MAIN_PAGE} className={buttonVariants({ size: "lg" })}>
                {messages.landingOpenApps}
              </Link>
            ) : (
              <>
                <Link href="/signup" className={buttonVariants({ size: "lg" })}>
                  {messages.landingCreateAccount}
                </Link>
                <Link href="/login" className={buttonVariants({ variant: "outline", size: "lg" })}>
                  {messages.landingLogIn}
                </Link>
              </>
            )}
          </div>
        </section>
        <section aria-labelledby="features" className="border-t border-border bg-muted/40">
          <div className="mx-auto grid max-w-5xl gap-6 px-4 py-12">
            <h2 id="features" className="text-xl font-semibold tracking-tight">
              {messages.landingFeatures}
            </h2>
            <ul className="grid gap-4 sm:grid-cols-2">
              {features.map(({ Icon, title, text }) => (
                <li key={title} className="grid gap-2 rounded-lg border border-border bg-background p-5">
                  <Icon className="size-5" aria-hidden />
                  <h3 className="font-medium">{title}</h3>
                  <p className="text-sm text-muted-foreground">{text}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>
      </main>
      <footer className="border-t border-border">
        <p className="mx-auto max-w-5xl px-4 py-6 text-sm text-muted-foreground">{messages.landingFooter}</p>
      </footer>
    </div>
  );
}
