import type { Metadata } from "next";
import { AppsList } from "@/components/home/apps-list";
import { listApps } from "@/lib/apps/create-app";
import { getPageSession } from "@/lib/auth/page-session";
import { messages } from "@/lib/messages";

export const metadata: Metadata = { title: messages.homeTitle };

export default async function HomePage() {
  const session = await getPageSession();
  // The layout shows account setup instead of this page until the account exists.
  const { apps } = session?.account ? await listApps(session) : { apps: [] };
  return (
    <AppsList
      key={apps.map((a) => `${a.appId}@${a.updatedAt}`).join()}
      initialApps={apps}
      email={session?.email ?? ""}
    />
  );
}
