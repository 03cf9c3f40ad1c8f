"use client";

import { KeyRoundIcon } from "lucide-react";
import { useState } from "react";
import { PanelSection } from "@/components/editor/panel-parts";
import { SecretsDialog } from "@/components/space/secrets/secrets-dialog";
import { Button } from "@/components/ui/button";
import { messages } from "@/lib/messages";

/** The Secrets section of a space app's settings: what secrets are, and the dialog's button. */
export function SecretsSettings({ appId }: { appId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <PanelSection title={messages.secretsTitle} note={messages.secretsDescription}>
      <div>
        <Button type="button" variant="outline" onClick={() => setOpen(true)}>
          <KeyRoundIcon aria-hidden />
          {messages.secretsManage}
        </Button>
      </div>
      <SecretsDialog appId={appId} open={open} onOpenChange={setOpen} />
    </PanelSection>
  );
}
