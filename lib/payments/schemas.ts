import { z } from "zod";
import { GUMROAD_TOKEN_MAX } from "@/lib/constants";
import { membershipsMessages } from "@/lib/messages/memberships";
import { storableString } from "@/lib/storable-text";

// Request and answer shapes of the paid memberships routes, shared by the routes, the settings
// panel, the public app's membership gate and the tests.

/**
 * An access token is sent in an HTTP header: printable ASCII, no spaces. Anything else (a NUL, an
 * emoji, a pasted line break) could never be one, and a header could not even carry it.
 */
const token = storableString()
  .trim()
  .min(1)
  .max(GUMROAD_TOKEN_MAX)
  .regex(/^[\x21-\x7e]+$/, { message: membershipsMessages.gumroadTokenMalformed });
const productId = storableString().trim().min(1).max(200);

/** GET /api/apps/{appId}/payments/products?appId={appId}&accessToken={token}. */
export const ProductsQuery = z.object({
  appId: z.uuid().optional(),
  /** The token the builder is typing; without it, the app's saved token. */
  accessToken: token.optional(),
});

/**
 * POST /api/apps/{appId}/payments/connect: productId, and the access token the
 * products were listed with when it is a new one; without it the saved token is used (changing
 * the product or resyncing a connected app).
 */
export const ConnectBody = z
  .object({ productId, accessToken: token.optional() })
  .meta({ examples: [{ productId: "qQn8x6VYtLcMH2uLJ5Tf9A==" }] });
export type ConnectBody = z.infer<typeof ConnectBody>;

export const PaymentProduct = z.object({ id: storableString(), name: storableString() });
export type PaymentProduct = z.infer<typeof PaymentProduct>;

export const ProductsAnswer = z.object({ products: z.array(PaymentProduct) });
export type ProductsAnswer = z.infer<typeof ProductsAnswer>;

/** The product end users buy: its Gumroad page is where they buy it. */
export const MembershipProduct = z.object({
  id: storableString(),
  name: storableString(),
  url: storableString().nullable(),
});
export type MembershipProduct = z.infer<typeof MembershipProduct>;

/**
 * The app's paid memberships as the builder sees them: "paidMembershipsProduct (id, name),
 * paidMembershipsSettings (paymentProvider, hasPaymentProviderAccessToken, isSetupCompleted)".
 * The token itself (gumroadAccessToken) is write-only: never in an answer.
 */
export const PaymentsState = z.object({
  isPaidMembershipsEnabled: z.boolean(),
  paidMembershipsProduct: MembershipProduct.nullable(),
  paidMembershipsSettings: z.object({
    paymentProvider: z.literal("gumroad"),
    hasPaymentProviderAccessToken: z.boolean(),
    isSetupCompleted: z.boolean(),
  }),
});
export type PaymentsState = z.infer<typeof PaymentsState>;

/**
 * GET /api/apps/{appId}/membership and the answer of .../membership/verify: whether the app asks
 * for a membership (paid memberships on and a product connected), whether the caller has one,
 * and the product to buy.
 */
export const MembershipState = z.object({
  required: z.boolean(),
  active: z.boolean(),
  product: MembershipProduct.nullable(),
});
export type MembershipState = z.infer<typeof MembershipState>;
