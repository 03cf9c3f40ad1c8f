import { PencilIcon } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { messages } from "@/lib/messages";

/** A draft app has no analytics (only published ones do): say so, and lead to the editor, where Publish is. */
export function AnalyticsNotPublished({ appId, appName }: { appId: string; appName: string }) {
  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6 p-4 sm:p-6">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight">{messages.analyticsTitle}</h1>
        <p className="truncate text-sm text-muted-foreground">{appName}</p>
      </div>
      <EmptyState
        title={messages.analyticsNotPublished}
        text={messages.analyticsNotPublishedText}
        action={
          <Button asChild>
            <Link href={`/build/app/${appId}`}>
              <PencilIcon aria-hidden="true" />
              {messages.analyticsOpenEditor}
            </Link>
          </Button>
        }
      />
    </div>
  );
}
