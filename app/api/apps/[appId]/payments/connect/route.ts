import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { connectPayments } from "@/lib/payments/connection";
import { ConnectBody, PaymentsState } from "@/lib/payments/schemas";

// POST /api/apps/{appId}/payments/connect - connect (or resync) the Gumroad product end users buy
export const POST = route(
  {
    auth: "builder",
    params: AppIdParams,
    body: ConnectBody,
    app: "edit",
    summary: "Connect the Gumroad product of paid memberships",
    response: PaymentsState,
    // 429: a few Gumroad calls a minute per app; 502: Gumroad could not be reached.
    errors: [429, 502],
  },
  ({ session, app, body }) => connectPayments(session, app, body),
);
