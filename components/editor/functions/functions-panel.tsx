"use client";

import { RocketIcon } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { PanelHeading } from "@/components/editor/panel-parts";
import { SecretsDialog } from "@/components/space/secrets/secrets-dialog";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { LoadFailed } from "@/components/ui/load-failed";
import { LoadingLine } from "@/components/ui/loading-line";
import { messages } from "@/lib/messages";
import { cn } from "@/lib/utils";
import { FunctionRow } from "./function-row";
import {
  deployAll,
  deployOne,
  type FunctionDeployResult,
  type FunctionListAnswer,
  loadFunctions,
} from "./functions-api";

type State = { phase: "loading" } | { phase: "error" } | { phase: "ready"; list: FunctionListAnswer };
type Summary = { text: string; tone: "ok" | "partial" | "failed" };

/**
 * The Functions panel of a space app: each functions/<name> file of the current version with its
 * deploy state, last deploy and webhook URL; Deploy per function and Deploy all with their
 * summaries. A deploy that lacks secrets names them and opens the Secrets dialog. `published`
 * follows the editor's Publish button: the URLs show only for a published app.
 */
export function FunctionsPanel({ appId, published }: { appId: string; published: boolean }) {
  const [state, setState] = useState<State>({ phase: "loading" });
  const [deploying, setDeploying] = useState<ReadonlySet<string>>(new Set());
  const [results, setResults] = useState<Readonly<Record<string, FunctionDeployResult>>>({});
  const [summary, setSummary] = useState<Summary | null>(null);
  const [secretsOpen, setSecretsOpen] = useState(false);

  const load = useCallback(
    async (quiet = false) => {
      if (!quiet) setState({ phase: "loading" });
      try {
        setState({ phase: "ready", list: await loadFunctions(appId) });
      } catch {
        if (!quiet) setState({ phase: "error" });
      }
    },
    [appId],
  );
  // Again when the app is published or unpublished (quietly: the list stays while it reloads), as
  // the URLs come and go with it.
  const shown = useRef(false);
  if (state.phase === "ready") shown.current = true;
  // biome-ignore lint/correctness/useExhaustiveDependencies: published is the reason to reload
  useEffect(() => {
    void load(shown.current);
  }, [load, published]);

  const deployFunction = async (name: string) => {
    setDeploying((s) => new Set(s).add(name));
    setSummary(null);
    try {
      const result = await deployOne(appId, name);
      setResults((r) => ({ ...r, [name]: result }));
      if (result.state === "success") toast.success(messages.functionDeployed);
    } catch {
      toast.error(messages.functionDeployError);
    } finally {
      setDeploying((s) => {
        const next = new Set(s);
        next.delete(name);
        return next;
      });
      await load(true);
    }
  };

  const deployEvery = async (names: string[]) => {
    setDeploying(new Set(names));
    setSummary(null);
    try {
      const answer = await deployAll(appId);
      setResults(Object.fromEntries(answer.results.map((r) => [r.name, r])));
      setSummary({
        text: answer.message,
        tone: answer.deployed === answer.total ? "ok" : answer.deployed === 0 ? "failed" : "partial",
      });
    } catch {
      setSummary({ text: messages.functionDeployError, tone: "failed" });
    } finally {
      setDeploying(new Set());
      await load(true);
    }
  };

  let body: React.ReactNode;
  if (state.phase === "loading") body = <LoadingLine text={messages.functionsLoading} />;
  else if (state.phase === "error") {
    body = <LoadFailed text={messages.functionsLoadFailed} onRetry={() => void load()} />;
  } else if (state.list.functions.length === 0) {
    body = <EmptyState title={messages.functionsEmpty} text={messages.functionsEmptyHint} />;
  } else {
    const { list } = state;
    const names = list.functions.map((f) => f.name);
    body = (
      <div className="grid gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <Button
            type="button"
            onClick={() => void deployEvery(names)}
            disabled={deploying.size > 0}
            data-testid="functions-deploy-all"
          >
            <RocketIcon aria-hidden />
            {deploying.size > 1 ? messages.functionsDeployingAll : messages.functionsDeployAll}
          </Button>
          {list.urlMessage ? <p className="text-sm text-muted-foreground">{list.urlMessage}</p> : null}
        </div>
        <div role="status" className="empty:hidden">
          {summary ? (
            <p
              data-summary={summary.tone}
              className={cn(
                "rounded-md border px-3 py-2 text-sm",
                summary.tone === "ok" && "border-emerald-300 dark:border-emerald-800",
                summary.tone === "partial" && "border-amber-300 dark:border-amber-800",
                summary.tone === "failed" && "border-destructive text-destructive",
              )}
            >
              {summary.text}
            </p>
          ) : null}
        </div>
        <ul className="grid gap-3">
          {list.functions.map((f) => (
            <FunctionRow
              key={f.name}
              item={f}
              result={results[f.name] ?? null}
              deploying={deploying.has(f.name)}
              busy={deploying.size > 0}
              onDeploy={() => void deployFunction(f.name)}
              onManageSecrets={() => setSecretsOpen(true)}
            />
          ))}
        </ul>
      </div>
    );
  }

  return (
    <div className="grid gap-4">
      <PanelHeading title={messages.functionsTitle} description={messages.functionsDescription} />
      {body}
      <SecretsDialog appId={appId} open={secretsOpen} onOpenChange={setSecretsOpen} />
    </div>
  );
}
