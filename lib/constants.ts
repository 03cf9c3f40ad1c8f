// Constants from the spec, with its wording alongside.

/** "Token refresh every 50 minutes." (spec 1 §9) */
export const TOKEN_REFRESH_MS = 50 * 60 * 1000;
/** Bearer tokens live a little longer than the refresh period so a late refresh still works. */
export const BEARER_TOKEN_TTL_S = 60 * 60;
/** Cookie sessions: a month, renewed whenever the session is read. */
export const SESSION_MAX_AGE_S = 30 * 24 * 60 * 60;

/** "wait 3 seconds first; ... retried up to 7 times, 4 seconds apart" (spec 1 §4) */
export const ACCOUNT_CREATE_INITIAL_WAIT_MS = 3000;
export const ACCOUNT_CREATE_RETRIES = 7;
export const ACCOUNT_CREATE_RETRY_MS = 4000;

/** Verification, reset and email-change links expire after 1 hour. */
export const EMAIL_LINK_TTL_S = 60 * 60;
/** One-time codes and magic links: 10 minute expiry (DESIGN §7). */
export const MAGIC_CODE_TTL_S = 10 * 60;
/** Wrong codes before a code is dead (429 ATTEMPTS_EXCEEDED). */
export const MAGIC_CODE_MAX_ATTEMPTS = 5;
/** Custom tokens returned by validateOtp are exchanged for a session within this time. */
export const CUSTOM_TOKEN_TTL_S = 5 * 60;

/** Passwords: at least 8 characters, up to 128, never truncated. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Login throttling: failures per window before 'Too many login attempts'. */
export const LOGIN_FAILURES_PER_ACCOUNT = 5;
export const LOGIN_FAILURES_PER_IP = 30;
export const LOGIN_WINDOW_S = 15 * 60;

/** Mail sends (verification, reset, magic code): per address and per IP. */
export const MAIL_SENDS_PER_ADDRESS = 5;
export const MAIL_SENDS_PER_IP = 30;
export const MAIL_WINDOW_S = 15 * 60;

/** "a sidebar toggles with Ctrl/Cmd+B and is remembered in a cookie" */
export const SIDEBAR_COOKIE = "sidebar_state";
export const SIDEBAR_COOKIE_MAX_AGE_S = 604800;

/** Modal widths in px. */
export const MODAL_WIDTH = { sm: 400, md: 600, lg: 820, xl: 1000 } as const;

/** The main page after login when no redirectTo is given. */
export const MAIN_PAGE = "/home";

/** "Yearly save badge appears when savings are 10 percent or more." (spec 1 §5) */
export const PLAN_SAVE_BADGE_MIN_PERCENT = 10;
/** "goto=upgrade_app_plan (opens the upgrade dialog)" (spec 1 §2) */
export const UPGRADE_GOTO_PARAM = "goto";
export const UPGRADE_GOTO_VALUE = "upgrade_app_plan";

/** "The account is refetched after payment, polled every 4000 ms up to 15 tries." (spec 2) */
export const PAYMENT_REFETCH_INTERVAL_MS = 4000;
export const PAYMENT_REFETCH_TRIES = 15;
/** "sale_id (after payment)" (spec 1 §2): the checkout session id on the return to /home. */
export const SALE_ID_PARAM = "sale_id";
/** Stripe webhook signatures older than this are refused (Stripe's own default tolerance). */
export const STRIPE_WEBHOOK_TOLERANCE_S = 300;
