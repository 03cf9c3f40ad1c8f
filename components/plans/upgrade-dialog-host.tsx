"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { Suspense, useEffect } from "react";
import { UPGRADE_GOTO_PARAM, UPGRADE_GOTO_VALUE } from "@/lib/constants";
import { UpgradeDialog } from "./upgrade-dialog";
import { closeUpgradeDialog, openUpgradeDialog, useUpgradeDialogState } from "./upgrade-dialog-store";

/**
 * Mount once in the builder layout. Shows the upgrade dialog when openUpgradeDialog() is
 * called, or when the page's URL carries ?goto=upgrade_app_plan (the parameter is removed
 * when the dialog closes).
 */
export function UpgradeDialogHost() {
  // useSearchParams needs a Suspense boundary so a statically rendered page still builds.
  return (
    <Suspense fallback={null}>
      <Host />
    </Suspense>
  );
}

function Host() {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const router = useRouter();
  const state = useUpgradeDialogState();
  const requested = searchParams.get(UPGRADE_GOTO_PARAM) === UPGRADE_GOTO_VALUE;

  useEffect(() => {
    if (requested) openUpgradeDialog();
  }, [requested]);

  // A link in the dialog (the admin page, when payments are off) leaves the page: the dialog
  // does not follow to the next one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the path changes.
  useEffect(() => closeUpgradeDialog, [pathname]);

  const onOpenChange = (open: boolean) => {
    if (open) return;
    closeUpgradeDialog();
    if (!requested) return;
    const rest = new URLSearchParams(searchParams.toString());
    rest.delete(UPGRADE_GOTO_PARAM);
    const query = rest.toString();
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  };

  return (
    <UpgradeDialog
      open={state.open}
      onOpenChange={onOpenChange}
      reason={state.open ? state.reason : undefined}
      planId={state.open ? state.planId : undefined}
      appId={state.open ? state.appId : undefined}
    />
  );
}
