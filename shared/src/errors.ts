/**
 * The one application error and the spec's error catalogue (attendance.md §8).
 * Services throw `AppError`; handlers render it as `{"error": code}` with its HTTP status.
 * Codes double as i18next keys in the web (`errors.<CODE>`).
 */

/** Error codes of the spec's catalogue plus the few this product adds (validation, throttling). */
export const ERROR_CODES = [
  "ERR_NO_OTHER_WHATSAPP",
  "ERR_NO_DEF_WAPP_FOUND",
  "ERR_WAPP_NOT_INITIALIZED",
  "ERR_WAPP_CHECK_CONTACT",
  "ERR_WAPP_INVALID_CONTACT",
  "ERR_WAPP_DOWNLOAD_MEDIA",
  "ERR_INVALID_CREDENTIALS",
  "ERR_SENDING_WAPP_MSG",
  "ERR_DELETE_WAPP_MSG",
  "ERR_OTHER_OPEN_TICKET",
  "ERR_SESSION_EXPIRED",
  "ERR_USER_CREATION_DISABLED",
  "ERR_NO_PERMISSION",
  "ERR_DUPLICATED_CONTACT",
  "ERR_NO_SETTING_FOUND",
  "ERR_NO_CONTACT_FOUND",
  "ERR_NO_TICKET_FOUND",
  "ERR_NO_USER_FOUND",
  "ERR_NO_WAPP_FOUND",
  "ERR_CREATING_MESSAGE",
  "ERR_CREATING_TICKET",
  "ERR_FETCH_WAPP_MSG",
  "ERR_QUEUE_COLOR_ALREADY_EXISTS",
  "ERR_WAPP_GREETING_REQUIRED",
  // Added by this product (not in the spec's table; named in its style):
  "ERR_VALIDATION",
  "ERR_INVALID_JSON",
  "ERR_NOT_FOUND",
  "ERR_ROUTE_NOT_FOUND",
  "ERR_SUBSCRIPTION_EXPIRED",
  "ERR_TOO_MANY_ATTEMPTS",
  "ERR_EMAIL_ALREADY_EXISTS",
  "ERR_NO_QUEUE_FOUND",
  "ERR_NO_COMPANY_FOUND",
  "ERR_NO_PLAN_FOUND",
  "ERR_NO_MESSAGE_FOUND",
  "ERR_NO_NOTE_FOUND",
  "ERR_NO_TAG_FOUND",
  "ERR_INVALID_CURSOR",
  "ERR_PAYLOAD_TOO_LARGE",
  "ERR_CONFLICT",
  "ERR_INTERNAL",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * An error the client may see. `status` is the HTTP status (400/401/403/404/409/413/429);
 * `data` is extra JSON sent beside the code (e.g. the existing ticket for `ERR_OTHER_OPEN_TICKET`).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly data?: Record<string, unknown>;

  constructor(code: ErrorCode, status = 400, data?: Record<string, unknown>) {
    super(code);
    this.name = "AppError";
    this.code = code;
    this.status = status;
    this.data = data;
  }

  /** The response body: `{"error": code, ...data}`. */
  toJSON(): Record<string, unknown> {
    return { error: this.code, ...(this.data ?? {}) };
  }
}

/** Shorthand for a 404 with the given code. */
export const notFound = (code: ErrorCode = "ERR_NOT_FOUND") => new AppError(code, 404);
/** Shorthand for a 403 `ERR_NO_PERMISSION`. */
export const forbidden = () => new AppError("ERR_NO_PERMISSION", 403);
