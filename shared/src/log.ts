/**
 * Structured JSON logs: one line per event. Never pass message bodies or tokens.
 */
import { getConfig } from "./config.ts";

type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** Writes `{level, msg, time, ...fields}` to stdout (stderr for warn/error) when the level is enabled. */
export function log(level: Level, msg: string, fields: Record<string, unknown> = {}): void {
  if (order[level] < order[getConfig().LOG_LEVEL]) return;
  const line = JSON.stringify({ level, msg, time: new Date().toISOString(), ...fields }, (_k, v) =>
    v instanceof Error ? { name: v.name, message: v.message } : v,
  );
  (level === "warn" || level === "error" ? process.stderr : process.stdout).write(`${line}\n`);
}

/**
 * The AWS SDK clients' logger: silent, and without `info`. The SDK's default no-op logger has an `info` method, so
 * its logger middleware filters every request and response (deep, against the API schema) just to hand the copy to a
 * logger that drops it: about a fifth of the CPU of a list request, and of each realtime post (which bounds the
 * ingest rate). Without `info` that work is skipped. Every SDK client of the product takes it (`logger: sdkLogger`).
 */
export const sdkLogger = { trace() {}, debug() {}, warn() {}, error() {} } as unknown as {
  debug: (...content: unknown[]) => void;
  info: (...content: unknown[]) => void;
  warn: (...content: unknown[]) => void;
  error: (...content: unknown[]) => void;
};
