/**
 * The session runner's own errors, under one base class {@link RunnerError}. They never reach an HTTP
 * client as such: the command consumer keeps a {@link RetryLater} command in its queue, drops a session on a
 * {@link FencedError}, and the sandbox endpoints render a {@link SimError} / {@link SimHttpError} as `{"error": code}`.
 */

/** Base of every error the runner raises on purpose; `code` names it in logs (and in sandbox answers). */
export class RunnerError extends Error {
  constructor(
    readonly code: string,
    message: string = code,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A failure worth retrying later (session reconnecting, transport hiccup): the command stays in the queue. */
export class RetryLater extends RunnerError {
  /** `retryAfterSeconds`: the earliest moment a retry can succeed (a live claim's expiry, a 440 back-off), if known. */
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super("RETRY_LATER", message);
  }
}

/** Thrown when a creds write is refused because a newer lease epoch owns the connection. */
export class FencedError extends RunnerError {
  constructor(readonly whatsappId: number) {
    super("FENCED", `auth state of connection ${whatsappId} is owned by a newer lease`);
  }
}

/** The connection has no running session in this runner (`ERR_WAPP_NOT_INITIALIZED`, the error table's code). */
export class NotInitialized extends RunnerError {
  constructor() {
    super("ERR_WAPP_NOT_INITIALIZED");
  }
}

/** A sandbox error with a code the `/sim` endpoints render as 409/404. */
export class SimError extends RunnerError {
  constructor(code: string, message: string) {
    super(code, message);
  }
}

/** A sandbox HTTP endpoint's refusal: `status` and the JSON `body` (`{error}`) it answers. */
export class SimHttpError extends RunnerError {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.error));
  }
}
