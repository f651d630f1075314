/**
 * The one application error and THE error table: every code the API may answer, with its one
 * HTTP status and a one-line meaning. Services throw `new AppError(code)` (the status comes from the table); the
 * HTTP pipeline renders it as `{"error": code, ...data}`. Codes double as i18next keys in the web (`errors.<CODE>`).
 *
 * A feature adds its own codes from its own folder, with no edit here:
 * ```ts
 * // shared/src/tags/errors.ts
 * export const TAG_ERRORS = defineErrors({ ERR_TAG_NAME_TAKEN: { status: 409, meaning: "a tag with this name exists" } });
 * declare module "../errors.ts" { interface FeatureErrorCodes { ERR_TAG_NAME_TAKEN: true } }
 * ```
 * and its web bundle (its `index.tsx` i18n, pt/en/es) carries `errors.ERR_TAG_NAME_TAKEN`.
 */

/** One row of the table: the HTTP status the code is always answered with, and what it means. */
export interface ErrorSpec {
  status: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 502;
  meaning: string;
}

/** THE table. The product's catalogue (the old system's codes) first, then the codes this product adds (named in the same style). */
export const ERRORS = {
  ERR_NO_OTHER_WHATSAPP: { status: 400, meaning: "there must be at least one default connection" },
  ERR_NO_DEF_WAPP_FOUND: { status: 404, meaning: "the company has no default connection" },
  ERR_WAPP_NOT_INITIALIZED: { status: 400, meaning: "the connection's WhatsApp session is not running" },
  ERR_WAPP_CHECK_CONTACT: { status: 400, meaning: "WhatsApp could not check the contact's number" },
  ERR_WAPP_INVALID_CONTACT: { status: 400, meaning: "the number is not on WhatsApp" },
  ERR_WAPP_DOWNLOAD_MEDIA: { status: 400, meaning: "the media could not be downloaded from WhatsApp" },
  ERR_INVALID_CREDENTIALS: { status: 401, meaning: "wrong email or password" },
  ERR_SENDING_WAPP_MSG: { status: 400, meaning: "the message could not be sent over WhatsApp" },
  ERR_DELETE_WAPP_MSG: { status: 400, meaning: "the message could not be deleted on WhatsApp" },
  ERR_OTHER_OPEN_TICKET: { status: 409, meaning: "the contact already has an open ticket (sent beside the code)" },
  // 401 clears the web's session; the one exception is an access token that merely expired, answered 403 so the
  // web refreshes once (shared/src/auth/tokens.ts, web/src/api/client.ts).
  ERR_SESSION_EXPIRED: { status: 401, meaning: "the token is missing, invalid, revoked or expired" },
  ERR_USER_CREATION_DISABLED: { status: 403, meaning: "sign-up is disabled" },
  ERR_NO_PERMISSION: { status: 403, meaning: "the caller's profile or access rule forbids this" },
  ERR_DUPLICATED_CONTACT: { status: 409, meaning: "a contact with this number exists in the company" },
  ERR_NO_SETTING_FOUND: { status: 404, meaning: "no such setting" },
  ERR_NO_CONTACT_FOUND: { status: 404, meaning: "no such contact in the caller's company" },
  ERR_NO_TICKET_FOUND: { status: 404, meaning: "no such ticket in the caller's company" },
  ERR_NO_USER_FOUND: { status: 404, meaning: "no such user in the caller's company" },
  ERR_NO_WAPP_FOUND: { status: 404, meaning: "no such connection in the caller's company" },
  ERR_CREATING_MESSAGE: { status: 400, meaning: "the message could not be stored" },
  ERR_CREATING_TICKET: { status: 409, meaning: "the ticket could not be created" },
  ERR_FETCH_WAPP_MSG: { status: 400, meaning: "the message could not be fetched from WhatsApp (too old)" },
  ERR_QUEUE_COLOR_ALREADY_EXISTS: { status: 409, meaning: "another queue of the company uses this colour" },
  ERR_WAPP_GREETING_REQUIRED: { status: 400, meaning: "a connection with several queues needs a greeting" },
  ERR_VALIDATION: { status: 400, meaning: "the body, query or path failed its schema (`fields: [{path, message}]`)" },
  ERR_INVALID_JSON: { status: 400, meaning: "the body is not JSON" },
  ERR_NOT_FOUND: { status: 404, meaning: "no such record" },
  ERR_ROUTE_NOT_FOUND: { status: 404, meaning: "no route for this method and path" },
  ERR_SUBSCRIPTION_EXPIRED: { status: 401, meaning: "the company's due date has passed (`dueDate` beside the code)" },
  ERR_TOO_MANY_ATTEMPTS: { status: 429, meaning: "too many failed logins; wait" },
  ERR_EMAIL_ALREADY_EXISTS: { status: 409, meaning: "a user with this email exists" },
  ERR_NO_QUEUE_FOUND: { status: 404, meaning: "no such queue in the caller's company" },
  ERR_NO_COMPANY_FOUND: { status: 404, meaning: "no such company" },
  ERR_NO_PLAN_FOUND: { status: 404, meaning: "no such plan" },
  ERR_PLAN_NAME_ALREADY_EXISTS: { status: 409, meaning: "another plan has this name" },
  ERR_PLAN_IN_USE: { status: 409, meaning: "a company is on this plan: move it first" },
  ERR_PLAN_FEATURE_DISABLED: { status: 403, meaning: "the company's plan does not include this feature" },
  ERR_USER_CREATION_COUNT: { status: 403, meaning: "the company's plan allows no more users (`limit` beside the code)" },
  ERR_CONNECTION_CREATION_COUNT: { status: 403, meaning: "the company's plan allows no more connections (`limit` beside the code)" },
  ERR_QUEUE_CREATION_COUNT: { status: 403, meaning: "the company's plan allows no more queues (`limit` beside the code)" },
  ERR_COMPANY_INACTIVE: { status: 401, meaning: "the caller's company is switched off (status false): signed out" },
  ERR_NO_MESSAGE_FOUND: { status: 404, meaning: "no such message in the caller's company" },
  ERR_NO_NOTE_FOUND: { status: 404, meaning: "no such ticket note in the caller's company" },
  ERR_INVALID_CURSOR: { status: 400, meaning: "the page cursor is malformed or belongs to another company or list" },
  ERR_PAYLOAD_TOO_LARGE: { status: 413, meaning: "the body or an uploaded file is too large" },
  ERR_CONFLICT: { status: 409, meaning: "the record changed concurrently; retry" },
  ERR_INTERNAL: { status: 500, meaning: "an unexpected failure (logged; no details sent)" },
} as const satisfies Record<string, ErrorSpec>;

/**
 * Codes a feature adds from its own folder (see the header): `declare module "@atende/shared/errors"` (or the
 * relative path) `{ interface FeatureErrorCodes { ERR_X: true } }`, together with {@link defineErrors}.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by features through declaration merging
export interface FeatureErrorCodes {}

/** Every code the API may answer. */
export type ErrorCode = keyof typeof ERRORS | keyof FeatureErrorCodes;

/** The central catalogue's codes, in table order (the web's i18n test checks each has pt/en/es text). */
export const ERROR_CODES = Object.keys(ERRORS) as (keyof typeof ERRORS)[];

const table = new Map<string, ErrorSpec>(Object.entries(ERRORS));

/**
 * Registers a feature's own codes (status + meaning) beside the central table; returns the rows unchanged.
 * @throws Error when a code is already in the table (codes are global).
 */
export function defineErrors<T extends Record<string, ErrorSpec>>(rows: T): T {
  for (const [code, spec] of Object.entries(rows)) {
    const cur = table.get(code);
    if (cur && (cur.status !== spec.status || cur.meaning !== spec.meaning)) throw new Error(`error code ${code} is already defined`);
    table.set(code, spec);
  }
  return rows;
}

/** The table row of a code (a feature's codes included once its module has loaded). */
export const errorSpec = (code: string): ErrorSpec | undefined => table.get(code);

/** The status the table gives a code (500 for an unknown one). */
export const statusOf = (code: string): number => table.get(code)?.status ?? 500;

/**
 * An error the client may see: `new AppError(code)` or `new AppError(code, data)`; `status` comes from the table.
 * `data` is extra JSON sent beside the code (e.g. the existing ticket for `ERR_OTHER_OPEN_TICKET`).
 * A status is given (`new AppError(code, status, data?)`) only where one code legitimately answers two statuses: the
 * 403 `ERR_SESSION_EXPIRED` of an access token that merely expired (the web refreshes once; every other session
 * failure is 401). `errors.test.ts` fails on any other call site that states a status.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly data?: Record<string, unknown>;

  constructor(code: ErrorCode, statusOrData?: number | Record<string, unknown>, data?: Record<string, unknown>) {
    super(code);
    this.name = "AppError";
    this.code = code;
    if (typeof statusOrData === "number") {
      this.status = statusOrData;
      this.data = data;
    } else {
      this.status = statusOf(code);
      this.data = statusOrData ?? data;
    }
  }

  /** The response body: `{"error": code, ...data}`. */
  toJSON(): Record<string, unknown> {
    return { error: this.code, ...(this.data ?? {}) };
  }
}

/** Shorthand for a "not found" code (its status from the table: 404). */
export const notFound = (code: ErrorCode = "ERR_NOT_FOUND") => new AppError(code);
/** Shorthand for a 403 `ERR_NO_PERMISSION`. */
export const forbidden = () => new AppError("ERR_NO_PERMISSION");
