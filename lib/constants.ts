// Constants from the spec, with its wording alongside.

/** "Token refresh every 50 minutes." */
export const TOKEN_REFRESH_MS = 50 * 60 * 1000;
/** Bearer tokens live a little longer than the refresh period so a late refresh still works. */
export const BEARER_TOKEN_TTL_S = 60 * 60;
/** A session unused for two weeks ends (the cookie's lifetime, renewed when the session is read). */
export const SESSION_IDLE_S = 14 * 24 * 60 * 60;
/** No session lives longer than 30 days from its sign-in, however often it is used or refreshed. */
export const SESSION_ABSOLUTE_S = 30 * 24 * 60 * 60;
/** A session's last use is written at most this often (the idle clock's resolution). */
export const SESSION_TOUCH_S = 5 * 60;

/** "wait 3 seconds first; ... retried up to 7 times, 4 seconds apart" */
export const ACCOUNT_CREATE_INITIAL_WAIT_MS = 3000;
export const ACCOUNT_CREATE_RETRIES = 7;
export const ACCOUNT_CREATE_RETRY_MS = 4000;

/** Verification, reset and email-change links expire after 1 hour. */
export const EMAIL_LINK_TTL_S = 60 * 60;
/** One-time codes and magic links: 10 minute expiry. */
export const MAGIC_CODE_TTL_S = 10 * 60;
/** Wrong codes before a code is dead (429 ATTEMPTS_EXCEEDED). */
export const MAGIC_CODE_MAX_ATTEMPTS = 5;
/** Custom tokens returned by validateOtp are exchanged for a session within this time. */
export const CUSTOM_TOKEN_TTL_S = 5 * 60;

/** Passwords: at least 8 characters, up to 128, never truncated. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Longest accepted inputs, in characters (the API's schemas and the forms' maxLength). */
export const EMAIL_MAX = 254;
/** A typed one-time code: 6 digits, with room for spaces around them. */
export const CODE_MAX = 12;
/** The token of an emailed link (ours are 43 characters; a mangled one still gets its message). */
export const LINK_CODE_MAX = 256;
/** A new password may arrive longer than PASSWORD_MAX: it is refused as too weak, before hashing. */
export const NEW_PASSWORD_MAX = 1024;
export const URL_MAX = 2048;
export const APP_ID_MAX = 64;
export const APP_NAME_MAX = 100;

/**
 * Attempt limits (docs/accounts-and-auth.md, "Attempt limits"). Each is reserved before the check it
 * guards. Per address and account, a stranger's failures lock out only the stranger's address;
 * the per-account ceiling stops guessing spread over many addresses.
 */
export const LOGIN_FAILURES_PER_ACCOUNT_AND_IP = 5;
export const LOGIN_FAILURES_PER_ACCOUNT_AND_IP_WINDOW_S = 15 * 60;
export const LOGIN_FAILURES_PER_ACCOUNT = 100;
export const LOGIN_FAILURES_PER_ACCOUNT_WINDOW_S = 60 * 60;
export const LOGIN_FAILURES_PER_IP = 30;
export const LOGIN_FAILURES_PER_IP_WINDOW_S = 15 * 60;

/** Photo uploads for runs per uploader (an end user, a visitor's address, a builder previewing). */
export const RUN_PHOTOS_PER_SUBJECT = 20;
export const RUN_PHOTOS_PER_SUBJECT_WINDOW_S = 10 * 60;

/** Mail sends (verification, reset, email change, sign-in codes), per kind of mail. */
export const MAIL_SENDS_PER_ADDRESS_AND_IP = 5;
export const MAIL_SENDS_PER_ADDRESS_AND_IP_WINDOW_S = 15 * 60;
export const MAIL_SENDS_PER_ADDRESS = 20;
export const MAIL_SENDS_PER_ADDRESS_WINDOW_S = 60 * 60;
export const MAIL_SENDS_PER_IP = 30;
export const MAIL_SENDS_PER_IP_WINDOW_S = 15 * 60;

/**
 * The mail queue (lib/jobs/worker.ts): each worker process takes this many mails per fetch, in
 * this many loops at once, so up to MAIL_BATCH_SIZE * MAIL_WORKER_LOOPS sends are in flight, and
 * fetches again at once while mails wait.
 */
export const MAIL_BATCH_SIZE = 4;
export const MAIL_WORKER_LOOPS = 2;
/**
 * Every SMTP session gives up after these (nodemailer's connection, greeting and inactivity
 * timeouts), so a server that accepts the connection and never answers fails the send, which is
 * retried, instead of holding a place in the queue for minutes. A `?connectionTimeout=` (or
 * greetingTimeout, socketTimeout) in SMTP_URL overrides them.
 */
export const SMTP_CONNECTION_TIMEOUT_MS = 10_000;
export const SMTP_GREETING_TIMEOUT_MS = 10_000;
export const SMTP_SOCKET_TIMEOUT_MS = 30_000;

/** Sign-ups that did not create an account (the address was taken), per IP. */
export const SIGNUP_FAILURES_PER_IP = 10;
export const SIGNUP_FAILURES_PER_IP_WINDOW_S = 15 * 60;
/** Email change requests refused because the address is taken, per user. */
export const EMAIL_CHANGE_IN_USE_PER_USER = 10;
export const EMAIL_CHANGE_IN_USE_PER_USER_WINDOW_S = 60 * 60;
/** Wrong one-time codes per IP, across addresses (each code also dies after 5 wrong guesses). */
export const OTP_FAILURES_PER_IP = 30;
export const OTP_FAILURES_PER_IP_WINDOW_S = 15 * 60;
/** The newest live codes of an address that a typed code is checked against. */
export const MAGIC_CODES_LIVE_PER_ADDRESS = 3;

/** "a sidebar toggles with Ctrl/Cmd+B and is remembered in a cookie" */
export const SIDEBAR_COOKIE = "sidebar_state";
export const SIDEBAR_COOKIE_MAX_AGE_S = 604800;

/** Modal widths in px. */
export const MODAL_WIDTH = { sm: 400, md: 600, lg: 820, xl: 1000 } as const;

/** The main page after login when no redirectTo is given. */
export const MAIN_PAGE = "/home";

/** "Yearly save badge appears when savings are 10 percent or more." */
export const PLAN_SAVE_BADGE_MIN_PERCENT = 10;
/** "goto=upgrade_app_plan (opens the upgrade dialog)" */
export const UPGRADE_GOTO_PARAM = "goto";
export const UPGRADE_GOTO_VALUE = "upgrade_app_plan";

/** "The account is refetched after payment, polled every 4000 ms up to 15 tries." */
export const PAYMENT_REFETCH_INTERVAL_MS = 4000;
export const PAYMENT_REFETCH_TRIES = 15;
/** "sale_id (after payment)": the checkout session id on the return to /home. */
export const SALE_ID_PARAM = "sale_id";
/** Stripe webhook signatures older than this are refused (Stripe's own default tolerance). */
export const STRIPE_WEBHOOK_TOLERANCE_S = 300;

// ---- paid memberships through Gumroad ----
/** "Payment token input debounced 1000 ms." */
export const PAYMENT_TOKEN_DEBOUNCE_MS = 1000;
/** A Gumroad call slower than this is given up (the run route waits for a due recheck). */
export const GUMROAD_TIMEOUT_MS = 8000;
/** Sales pages (10 sales each) read at most when looking for an end user's purchase. */
export const GUMROAD_SALES_MAX_PAGES = 20;
/** A verified membership is checked with Gumroad again after this long (cancellations, refunds). */
export const MEMBERSHIP_RECHECK_S = 24 * 60 * 60;
/** A recheck that could not reach Gumroad is tried again after this long. */
export const MEMBERSHIP_RECHECK_RETRY_S = 60 * 60;
/** While Gumroad cannot be reached, a membership it confirmed within this long still counts. */
export const MEMBERSHIP_GRACE_S = 7 * 24 * 60 * 60;
/** "I've bought it" checks per end user, each a call to Gumroad. */
export const MEMBERSHIP_VERIFY_PER_USER = 10;
export const MEMBERSHIP_VERIFY_PER_USER_WINDOW_S = 10 * 60;
/** Product lists and connects per app (each a call to Gumroad with the builder's token). */
export const PAYMENT_CALLS_PER_APP = 60;
export const PAYMENT_CALLS_PER_APP_WINDOW_S = 10 * 60;
/** A Gumroad access token as the builder pastes it. */
export const GUMROAD_TOKEN_MAX = 500;

// ---- The app editor ----

/** "App builder version 4." */
export const APP_BUILDER_VERSION = 4;
/** "Auto-save debounce: 2000 ms for app edits". */
export const APP_SAVE_DEBOUNCE_MS = 2000;
/** A failed save is retried after this long, doubling up to the maximum. */
export const APP_SAVE_RETRY_MS = 3000;
export const APP_SAVE_RETRY_MAX_MS = 30_000;
/** "Input examples: 3 slots." */
export const EXAMPLES_MAX = 3;
/** "New step ids 4 characters." */
export const STEP_ID_LENGTH = 4;
/** "Option edit blur closes after 500 ms." */
export const OPTION_BLUR_CLOSE_MS = 500;
/** "Max image file size 10 MB (10,000,000 bytes)"; files of this size or more are refused. */
export const IMAGE_MAX_BYTES = 10_000_000;
/** "The field name 'input' is reserved". */
export const RESERVED_FIELD_NAME = "input";

// Lengths the spec leaves open ("value not shown"): our choices.
/** "Option label ... length capped by a maximum (value not shown)". */
export const OPTION_LABEL_MAX = 100;
/** "label max lengths ... not shown". */
export const FIELD_LABEL_MAX = 200;
export const FIELD_NAME_MAX = 50;
export const FIELD_INSTRUCTIONS_MAX = 2000;
export const FIELD_OPTIONS_MAX = 100;
/** Above every plan's maxCustomFields: the schema's own ceiling. */
export const FIELDS_HARD_MAX = 100;
/** "Template category name maximum length is a shared constant; value not shown." */
export const TEMPLATE_CATEGORY_MAX = 40;
export const APP_TEXT_MAX = 2000;
export const INSTRUCTIONS_MAX = 20_000;
export const TOOL_PATH_MAX = 80;
export const CUSTOM_DOMAIN_MAX = 253;

// ---- Tool settings; the settings panel's inputs use these ----
/** "Model temperature 0 to 2, step 0.1"; "Temperature default 0.7". */
export const TEMPERATURE_MIN = 0;
export const TEMPERATURE_MAX = 2;
export const TEMPERATURE_STEP = 0.1;
export const TEMPERATURE_DEFAULT = 0.7;
/** "Runs per user: daily and weekly limits each 1 to 100". */
export const USER_RUN_LIMIT_MIN = 1;
export const USER_RUN_LIMIT_MAX = 100;
/** "Credits per run: 0 to 20, default 1". */
export const CREDITS_PER_RUN_MIN = 0;
export const CREDITS_PER_RUN_MAX = 20;
export const CREDITS_PER_RUN_DEFAULT = 1;

// ---- Models (lib/ai) ----

/** "Default model is a small GPT-4o-mini variant"; AI_DEFAULT_MODEL overrides it. */
export const DEFAULT_MODEL = "gpt-4o-mini";
/** The provider's model list is kept this long (cached). */
export const MODEL_LIST_TTL_MS = 10 * 60 * 1000;
/** After a failed list call the fallback list is served this long before asking again. */
export const MODEL_LIST_RETRY_MS = 60 * 1000;
/** A model list slower than this is given up for the built-in fallback list. */
export const MODEL_LIST_TIMEOUT_MS = 3000;
/** More entries than this in a provider's list are dropped. */
export const MODEL_LIST_MAX = 1000;

/** POST /api/builder/magicCreate: what the builder typed (a field name or a few words). */
export const MAGIC_INPUT_MAX = 200;
/**
 * The app instructions sent along as context, in characters: their beginning says enough to name
 * a field, and every character is paid for (the editor sends at most this much).
 */
export const MAGIC_PROMPT_MAX = 4000;
/** Existing field names the caller may send for the uniqueness rule. */
export const MAGIC_EXISTING_NAMES_MAX = 200;
/** Options a magic select field gets at most. */
export const MAGIC_OPTIONS_MAX = 12;
/** The model call of magicCreate, retries included. */
export const MAGIC_CREATE_TIMEOUT_MS = 30_000;

// ---- tool runs (lib/runs) ----
/** One input value of a run, in characters (the main input, a long text). */
export const RUN_INPUT_VALUE_MAX = 10_000;
/** A run from the request to the model's last word; past it the run is aborted. */
export const RUN_TIMEOUT_MS = 120_000;
/** A run still 'running' this long after it started lost its server: the prune job aborts it. */
export const RUN_STALE_MS = 15 * 60 * 1000;
/** Retries of a model call that failed before its first word. */
export const RUN_MODEL_RETRIES = 1;
/** CSV rows of smart items filtering handed to the model at most. */
export const RUN_MATCHED_ROWS_MAX = 50;

// ---- analytics (lib/analytics) ----
/** The ranges the analytics page offers: the last N UTC days, today included. */
export const ANALYTICS_PRESET_DAYS = [7, 30, 90] as const;
/** The range shown first, and the length of a range given only its end. */
export const ANALYTICS_DEFAULT_DAYS = 30;
/** A range may span at most this many days (one chart bar a day). */
export const ANALYTICS_MAX_DAYS = 366;
/** Recent runs per page. */
export const ANALYTICS_RUNS_PAGE = 20;
/** Tools listed under "Top tools". */
export const ANALYTICS_TOP_TOOLS = 10;

// ---- data sources ----
/** "Connector chunk size 1000, overlap 200": characters per chunk of ingested text. */
export const CONTEXT_CHUNK_SIZE = 1000;
/** Characters each chunk shares with the one before it. */
export const CONTEXT_CHUNK_OVERLAP = 200;
/** Chunks a retrieval returns unless asked for fewer. */
export const CONTEXT_RETRIEVE_LIMIT = 10;
/** The connector token (fetchCarbonTokens), used as the OAuth state: the connect flow's lifetime. */
export const CONNECT_STATE_TTL_S = 10 * 60;

// ---- space apps: chat and versions ----
/** "History page size 50": chat history messages per page, and the most a page may ask. */
export const CHAT_HISTORY_PAGE_SIZE = 50;
/** "the app version list shows the latest 10 plus the current one with an intermediate count". */
export const VERSIONS_LIST_DEFAULT = 10;
/** "the file version dialog loads up to 50 versions": the most a version list may ask. */
export const VERSIONS_LIST_MAX = 50;
/** "Rating scale 1-5". */
export const RATING_MIN = 1;
export const RATING_MAX = 5;
/** "Score 4 or more shows positive reasons; below 4 shows problem reasons". */
export const RATING_POSITIVE_FROM = 4;
/** A rating's optional comment, in characters. */
export const RATING_COMMENT_MAX = 2000;
/**
 * A version lists every path of its tree when its chain has gone this many versions without one,
 * so reading any version walks at most this many versions' changes (lib/space/versions.ts).
 */
export const SPACE_SNAPSHOT_INTERVAL = 100;
/** Files of a space app, their paths and their sizes at most. */
export const SPACE_FILES_MAX = 1000;
export const SPACE_PATH_MAX = 300;
export const SPACE_FILE_MAX_BYTES = 512 * 1024;
// The Code panel of a space app (components/editor/code):
/** "1 s for file editing": a file is saved this long after the last keystroke. */
export const CODE_SAVE_DEBOUNCE_MS = 1000;
/** "saved indicator 2 s". */
export const CODE_SAVED_INDICATOR_MS = 2000;
/** "File tree search debounce 500 ms." */
export const FILE_TREE_SEARCH_DEBOUNCE_MS = 500;
/** "File line badge above 500 lines." */
export const FILE_LINE_BADGE_ABOVE = 500;
/** A delete updates at most this many files that imported the deleted one. */
export const DELETE_REFERENCES_MAX = 50;
/** An answer still 'streaming' this long after its last write lost its server: it is marked incomplete. */
export const CHAT_STREAM_STALE_MS = 10 * 60 * 1000;
// The chat view (components/space/chat):
/** "Copied indicator 2 s." */
export const COPIED_INDICATOR_MS = 2000;
/** "Scroll-to-message delay 100 ms." (?messageId= on the chat view) */
export const SCROLL_TO_MESSAGE_DELAY_MS = 100;
/** "Load-more button threshold 50 px from top." */
export const LOAD_MORE_THRESHOLD_PX = 50;
/** "Issues panel list max height 100 px." */
export const ISSUES_LIST_MAX_HEIGHT_PX = 100;
/** "clears after a fix once loading ends (minimize delay 1 s)"; "Auto-minimize after fix 1 s." */
export const ISSUES_MINIMIZE_DELAY_MS = 1000;
/** "Chat message panel max width 350 px." */
export const CHAT_MESSAGE_MAX_WIDTH_PX = 350;

// ---- the preview of a space app version (our own limits) ----
/** How long a signed preview link opens the preview document. */
export const PREVIEW_TOKEN_TTL_S = 5 * 60;
/**
 * The same for the published app's frame (/app/{appId}): longer, as a visitor's page stays open
 * and the app's own code may reload its frame (the link is made once, when the page renders).
 */
export const PUBLISHED_DOCUMENT_TTL_S = 60 * 60;
/** A build of a version's files is cancelled past this. */
export const PREVIEW_BUILD_TIMEOUT_MS = 15_000;
/** The largest bundle (script and stylesheet) a preview may be. */
export const PREVIEW_BUNDLE_MAX_BYTES = 8 * 1024 * 1024;
/** Builds running at once in one server process; more wait their turn. */
export const PREVIEW_BUILD_CONCURRENCY = 2;
/** Build errors reported per build. */
export const PREVIEW_ISSUES_MAX = 20;
/** Built bundles kept in memory per server process, in bytes and in number. */
export const PREVIEW_CACHE_MAX_BYTES = 64 * 1024 * 1024;
export const PREVIEW_CACHE_MAX_ENTRIES = 200;
/**
 * Validation of a space app version (lib/validation/): its linting and schema checks run in a
 * worker thread with this heap, and this long at most (the worker is ended past it); issues
 * answered per validation; runtime errors the preview reported, accepted per request.
 */
export const VALIDATION_HEAP_MB = 256;
export const VALIDATION_TIMEOUT_MS = 30_000;
export const VALIDATION_ISSUES_MAX = 200;
export const VALIDATION_RUNTIME_ERRORS_MAX = 50;
/** "Repair iterations default 2, range 1-5". */
export const REPAIR_ITERATIONS_DEFAULT = 2;
export const REPAIR_ITERATIONS_MIN = 1;
export const REPAIR_ITERATIONS_MAX = 5;
/** One repair model call's time limit, and its output cap (whole files come back). */
export const REPAIR_MODEL_TIMEOUT_MS = 2 * 60 * 1000;
export const REPAIR_MAX_OUTPUT_TOKENS = 16_384;
/** The files one repair call is given to fix (the ones with issues, first by issue order). */
export const REPAIR_FILES_MAX = 10;
/** How long the tester shows Applied before the chat and the preview move to the new version. */
export const REPAIR_APPLIED_SHOW_MS = 1_200;
// ---- live streams (Server-Sent Events: data-source status, the space chat; lib/realtime/stream-slots.ts) ----
/** Streams one account may hold open at once in one server process (tabs, apps, a chat answer). */
export const STREAMS_PER_ACCOUNT = 10;
/** Streams one server process holds open at once, all accounts together. */
export const STREAMS_PER_PROCESS = 1000;
/**
 * A status stream is ended after this long with an `event: reconnect`; the browser's EventSource
 * connects again by itself (SSE_MAX_LIFETIME_MS in the environment, shorter in tests). A client
 * that went away without closing its connection holds its slot at most this long.
 */
export const SSE_MAX_LIFETIME_MS = 15 * 60 * 1000;
// ---- space apps: the chat stream (lib/space/chat-stream.ts) ----
/** A chat message the builder sends, in characters. */
export const CHAT_MESSAGE_MAX = 20_000;
/** An answer still being written after this long is cut by the server (it fails; retry offered). */
export const CHAT_TIMEOUT_MS = 5 * 60 * 1000;
/** The model's output cap per answer; an answer that reaches it is 'truncated' ('Let's keep going'). */
export const CHAT_MAX_OUTPUT_TOKENS = 16_384;
/** How often a streaming answer saves what it has (keeps it from being taken for stale, survives a crash). */
export const CHAT_PROGRESS_SAVE_MS = 3000;
/** Characters of the app's files shown to the model; the rest are listed by path and size. */
export const SPACE_PROMPT_FILES_BUDGET = 80_000;
/** Earlier messages of the conversation the model is shown. */
export const SPACE_PROMPT_HISTORY_MESSAGES = 20;

/** A page of an entity's records in the Database panel (GET .../entities/{entity}/records). */
export const ENTITY_RECORDS_PAGE = 50;
export const ENTITY_RECORDS_PAGE_MAX = 200;
/** The longest field name a records list may be sorted by (?sort=); longer ones are no field. */
export const ENTITY_SORT_FIELD_MAX = 200;
/** Records one insert_entity_records action of the chat may add, and the size of each as JSON. */
export const ENTITY_RECORDS_PER_ACTION_MAX = 100;
export const ENTITY_RECORD_BYTES_MAX = 10_000;
/** Records in one CSV export ({entity}_export_{date}.csv), newest first. */
export const ENTITY_EXPORT_MAX = 10_000;

/**
 * "Column widths min 50, default 150, max 400; multiselect defaults 200, others 100; Created At
 * column 208 wide." Read as: every column is resizable between MIN and MAX; a column of the
 * entity's fields starts at 200 when it is a multiselect and at 100 for every other kind; Created
 * At starts at 208; 150 is the table's own default, for any column the field model does not size
 * (a column the panel adds of its own, such as a record key absent from the schema).
 */
export const TABLE_COLUMN_MIN_WIDTH = 50;
export const TABLE_COLUMN_DEFAULT_WIDTH = 150;
export const TABLE_COLUMN_MAX_WIDTH = 400;
export const TABLE_MULTISELECT_WIDTH = 200;
export const TABLE_FIELD_WIDTH = 100;
export const TABLE_CREATED_AT_WIDTH = 208;
/** The Database table's rows and the height of its virtual list, in px. */
export const TABLE_ROW_HEIGHT = 40;
export const TABLE_VIEW_HEIGHT = 480;
/**
 * Bulk delete of the Database table's selected rows: this many at a time, with this pause between
 * one batch and the next (so a long delete leaves room for the app's own traffic and can be
 * cancelled between batches).
 */
export const TABLE_BULK_DELETE_CHUNK = 5;
export const TABLE_BULK_DELETE_PAUSE_MS = 200;
/** Pixels a column's width changes by per arrow key on its separator. */
export const TABLE_COLUMN_RESIZE_STEP = 10;
/** The next page of records loads when the grid shows a row this close to the last loaded one. */
export const TABLE_LOAD_AHEAD_ROWS = 30;

/**
 * The free plan every account starts on (the accounts table's default) and the plan of an app
 * whose owner has none: its id in the plan catalogue (lib/plans/catalogue.ts FREE_PLAN_ID).
 */
export const FREE_PLAN = "lite";

// The data API of a space app's own code (lib/app-data; our choices).
/** Records a list answers by default, and at most. */
export const APP_DATA_LIST_DEFAULT = 50;
export const APP_DATA_LIST_MAX = 200;
/** Records one bulkCreate may hold. */
export const APP_DATA_BULK_MAX = 100;
/** How deep a record's JSON may nest. */
export const APP_DATA_DEPTH_MAX = 32;
/** Fields one list filter may name. */
export const APP_DATA_FILTER_FIELDS_MAX = 10;
/** An app token lives as long as a bearer token, never past its session's end. */
export const APP_TOKEN_TTL_S = 60 * 60;
/** Writes a caller without a sign-in may make to one app from one address, per minute. */
export const APP_DATA_ANONYMOUS_WRITES_PER_MINUTE = 30;

// ---- CSV import: the mapping of columns to fields ----

/** An entity's name: a letter, then letters, digits and underscores (its file is entities/{name}.json). */
export const ENTITY_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** Columns of a CSV file the mapping handles at most. */
export const CSV_MAPPING_HEADERS_MAX = 200;
/** Characters of one column header. */
export const CSV_HEADER_MAX = 200;
/** Rows of the preview: the wizard shows, and the model sees, the first 5 rows. */
export const CSV_PREVIEW_ROWS = 5;
/** Characters of one preview cell sent to the model (longer values are cut by the client). */
export const CSV_PREVIEW_CELL_MAX = 500;
/** Fields of an entity schema the mapping considers at most. */
export const CSV_SCHEMA_FIELDS_MAX = 500;
/** The model call of the mapping, retries included: past it the basic mapping is answered. */
export const CSV_MAPPING_TIMEOUT_MS = 20_000;
/** Bytes of a CSV file an import takes at most. */
export const CSV_IMPORT_BYTES_MAX = 50 * 1024 * 1024;
/**
 * Records written per INSERT by an import: each batch is in whole or not at all, and moves the
 * progress once. Past a few thousand a batch's statement and commit cost nothing more beside its
 * rows (bench/csv-import.ts).
 */
export const CSV_IMPORT_BATCH_ROWS = 2000;
/** The piece of the file an import's parsing worker is given at a time (a few thousand rows). */
export const CSV_IMPORT_PIECE_BYTES = 256 * 1024;
/** Failed rows an import keeps with their reason (the count covers them all). */
export const CSV_IMPORT_FAILED_ROWS_KEPT = 1000;

// ---- Space app secrets (lib/secrets) ----

/**
 * A secret's key: what its functions read it by, an environment variable's name (a letter or
 * underscore, then letters, digits and underscores).
 */
export const SECRET_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Characters of a secret's key. */
export const SECRET_KEY_MAX = 128;
/** Characters of a secret's value (API keys, tokens, a PEM key at most). */
export const SECRET_VALUE_MAX = 8192;
/** Characters of a secret's instructions (or a requested secret's description). */
export const SECRET_INSTRUCTIONS_MAX = 1000;
/** Secrets one space app holds at most (and one save sends at most). */
export const SECRETS_PER_APP_MAX = 100;
/** What stands for a secret's value in every answer: the value itself never leaves the server. */
export const SECRET_MASK = "••••••";

// ---- Space app backend functions: the contained runtime (lib/functions) ----

/** Bytes of a request's body a function is given at most (webhooks are small). */
export const FUNCTION_REQUEST_BODY_MAX = 1024 * 1024;
/** Bytes of a function's answer kept at most; past it the call fails instead. */
export const FUNCTION_RESPONSE_BODY_MAX = 6 * 1024 * 1024;
/** Wall time of one call; past it the function's process is killed (an endless loop ends here). */
export const FUNCTION_WALL_MS = 15_000;
/** Until a new process serves: Deno's start and the function's module (generous: a busy machine). */
export const FUNCTION_START_MS = 20_000;
/** V8's heap of one function's process, in MB: past it V8 stops the process. */
export const FUNCTION_HEAP_MB = 256;
/**
 * The process's data segment (RLIMIT_DATA), in MB: bounds what the heap limit does not
 * (ArrayBuffers, native buffers). Deno needs a few hundred MB of it to start.
 */
export const FUNCTION_DATA_MB = 1024;
/**
 * CPU seconds of one process over its whole life (RLIMIT_CPU): a warm process serving many calls
 * is ended here and started again on the next call. One call is bounded by FUNCTION_WALL_MS.
 */
export const FUNCTION_PROCESS_CPU_SECONDS = 120;
/** Function processes starting at once (each start is a burst of CPU); more calls wait their turn. */
export const FUNCTION_STARTS_AT_ONCE = 4;
/** A warm process unused this long is stopped. */
export const FUNCTION_IDLE_MS = 5 * 60_000;
/**
 * How long an idle connection to a warm process is kept for the next call (a new loopback
 * connection per call was a good part of a warm call's time).
 */
export const FUNCTION_KEEPALIVE_MS = 10_000;
/** Warm processes one server keeps at most; the least recently used idle one goes first. */
export const FUNCTION_WARM_MAX = 32;
/** Lines of a function's own output (console) kept per process, for its logs. */
export const FUNCTION_LOG_LINES = 200;
/** A function's name: its file's under functions/, without the extension. */
export const FUNCTION_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** Calls of one app's public function URLs from one address, per minute (webhooks retry slowly). */
export const FUNCTION_CALLS_PER_MINUTE = 120;
/**
 * Data calls (`@app/client`) one function process has in the database at once; more wait their
 * turn. A function that fires thousands at once must not take the connections every app shares.
 */
export const FUNCTION_DATA_CALLS_AT_ONCE = 8;

/** Word changes are marked inside changed lines only while both files are at most this long (characters). */
export const WORD_DIFF_MAX_CHARS = 10_000;
