"use client";

import { CheckIcon, CopyIcon, KeyRoundIcon } from "lucide-react";
import { useId } from "react";
import { RelativeTime } from "@/components/home/relative-time";
import { useCopied } from "@/components/space/chat/use-copied";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { FunctionListAnswer } from "@/lib/functions/schemas";
import { type MessageKey, messages } from "@/lib/messages";
import { fillTemplate } from "@/lib/text";
import { cn } from "@/lib/utils";
import type { FunctionDeployResult } from "./functions-api";

type FunctionListItem = FunctionListAnswer["functions"][number];
type State = FunctionListItem["state"];

const STATE_LABEL: Record<State, MessageKey> = {
  pending: "functionStatePending",
  deploying: "functionStateDeploying",
  success: "functionStateSuccess",
  error: "functionStateError",
};

const STATE_TONE: Record<State, string> = {
  pending: "bg-muted text-muted-foreground",
  deploying: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  success: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
  error: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
};

/**
 * One function of the Functions panel: its name and file, state and last deploy, the result of
 * this session's deploy (the missing secrets with the Manage Secrets button, or why it failed),
 * its webhook URL with a copy button, and Deploy.
 */
export function FunctionRow({
  item,
  result,
  deploying,
  busy,
  onDeploy,
  onManageSecrets,
}: {
  item: FunctionListItem;
  /** The last deploy of it made in this panel, if any. */
  result: FunctionDeployResult | null;
  deploying: boolean;
  /** A deploy is running (this one or another): the buttons wait. */
  busy: boolean;
  onDeploy: () => void;
  onManageSecrets: () => void;
}) {
  const titleId = useId();
  const state: State = deploying ? "deploying" : item.state;
  const failed = !deploying && result?.state === "error" ? result : null;
  const live = item.deployedAt !== null && item.state === "success";
  return (
    <li
      aria-labelledby={titleId}
      data-function={item.name}
      data-state={state}
      className="grid gap-2 rounded-lg border border-border p-3"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <div className="grid min-w-0 flex-1 gap-0.5">
          <h3 id={titleId} className="truncate font-mono text-sm font-medium">
            {item.name}
          </h3>
          <p className="truncate text-xs text-muted-foreground">{item.path}</p>
        </div>
        <span className={cn("rounded-full px-2 py-0.5 text-xs font-medium", STATE_TONE[state])}>
          {messages[STATE_LABEL[state]]}
        </span>
        <Button type="button" size="sm" variant="outline" onClick={onDeploy} disabled={busy}>
          {deploying
            ? messages.functionDeploying
            : live
              ? messages.functionRedeploy
              : messages.functionDeploy}
        </Button>
      </div>
      {item.deployedAt || (live && item.changedSinceDeploy) ? (
        <p className="text-xs text-muted-foreground">
          {item.deployedAt ? (
            <RelativeTime
              iso={item.deployedAt}
              template={(time) => fillTemplate(messages.functionDeployedAt, { time })}
            />
          ) : null}
          {live && item.changedSinceDeploy ? ` · ${messages.functionChanged}` : null}
        </p>
      ) : null}
      {failed ? (
        <DeployFailure result={failed} onManageSecrets={onManageSecrets} />
      ) : item.state === "error" && item.error && !deploying ? (
        <p className="text-xs text-destructive">{item.error}</p>
      ) : null}
      {item.url ? <FunctionUrl name={item.name} url={item.url} /> : null}
    </li>
  );
}

function DeployFailure({
  result,
  onManageSecrets,
}: {
  result: FunctionDeployResult;
  onManageSecrets: () => void;
}) {
  const missing = result.missingSecrets ?? [];
  return (
    <div role="alert" className="grid gap-2 rounded-md border border-destructive/50 px-3 py-2 text-sm">
      <p className="font-medium text-destructive">{result.message}</p>
      {missing.length > 0 ? (
        <>
          <ul className="grid gap-1 text-xs">
            {missing.map((s) => (
              <li key={s.secretName} data-missing-secret={s.secretName}>
                {s.description
                  ? fillTemplate(messages.functionMissingSecretOne, {
                      name: s.secretName,
                      description: s.description,
                    })
                  : s.secretName}
              </li>
            ))}
          </ul>
          <div>
            <Button type="button" size="sm" variant="outline" onClick={onManageSecrets}>
              <KeyRoundIcon aria-hidden />
              {messages.secretsManage}
            </Button>
          </div>
        </>
      ) : result.reason ? (
        <p className="text-xs break-words text-muted-foreground">{result.reason}</p>
      ) : null}
    </div>
  );
}

function FunctionUrl({ name, url }: { name: string; url: string }) {
  const [copied, copy] = useCopied();
  const label = fillTemplate(messages.functionUrl, { name });
  return (
    <div className="flex items-center gap-2">
      <Input readOnly value={url} aria-label={label} className="h-8 font-mono text-xs" />
      <Button
        type="button"
        size="sm"
        variant="outline"
        className="shrink-0 whitespace-nowrap"
        onClick={() => copy(url)}
        aria-label={copied ? messages.functionUrlCopied : `${messages.functionCopyUrl}: ${name}`}
      >
        {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
        <span className="sr-only sm:not-sr-only">
          {copied ? messages.functionUrlCopied : messages.functionCopyUrl}
        </span>
      </Button>
    </div>
  );
}
