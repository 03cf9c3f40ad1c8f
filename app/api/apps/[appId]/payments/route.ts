import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { disconnectPayments, loadPaymentsState } from "@/lib/payments/connection";
import { PaymentsState } from "@/lib/payments/schemas";

// GET /api/apps/{appId}/payments - the app's paid memberships: product and setup (never the token)
export const GET = route(
  {
    auth: "builder",
    params: AppIdParams,
    app: "edit",
    summary: "The app's paid memberships setup",
    response: PaymentsState,
  },
  ({ app }) => loadPaymentsState(app),
);

// DELETE /api/apps/{appId}/payments - disconnect Gumroad: forget the access token and the product
export const DELETE = route(
  {
    auth: "builder",
    params: AppIdParams,
    app: "edit",
    summary: "Disconnect the payment provider",
    response: PaymentsState,
  },
  ({ app }) => disconnectPayments(app),
);
