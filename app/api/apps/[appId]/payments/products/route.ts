import { route } from "@/lib/api/route";
import { AppIdParams } from "@/lib/apps/schemas";
import { listPaymentProducts } from "@/lib/payments/connection";
import { ProductsAnswer, ProductsQuery } from "@/lib/payments/schemas";

// GET /api/apps/{appId}/payments/products?appId={appId}&accessToken={token} - the Gumroad products
export const GET = route(
  {
    auth: "builder",
    params: AppIdParams,
    query: ProductsQuery,
    app: "edit",
    summary: "The products of a Gumroad account (the token given, else the saved one)",
    response: ProductsAnswer,
    errors: [429, 502],
  },
  ({ session, app, query }) => listPaymentProducts(session, app, query),
);
