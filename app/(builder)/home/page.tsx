import type { Metadata } from "next";
import Link from "next/link";
import { listAppsByOwner } from "@/db/queries/apps";
import { getPageSession } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Home" };

export default async function HomePage() {
  const session = await getPageSession();
  const apps = session?.account ? await listAppsByOwner(session.account.accountId) : [];
  return (
    <div className="mx-auto grid max-w-5xl gap-6 p-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Your apps</h1>
        <p className="text-sm text-muted-foreground">Signed in as {session?.email}</p>
      </div>
      {apps.length === 0 ? (
        <div className="rounded-lg border border-dashed border-border p-10 text-center">
          <p className="font-medium">No apps yet</p>
          <p className="text-sm text-muted-foreground">The AI apps and tools you build will appear here.</p>
        </div>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {apps.map((app) => (
            <li key={app.id} className="rounded-lg border border-border p-4">
              <p className="font-medium">{app.header || "Untitled app"}</p>
              <p className="text-xs text-muted-foreground">
                {app.type} · {app.status === "active" ? "Published" : "Not published"}
              </p>
              {app.status === "active" && (
                <Link
                  className="mt-2 inline-block text-sm underline-offset-4 hover:underline"
                  href={`/app/${app.id}`}
                >
                  Open published app
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
