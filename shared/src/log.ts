/**
 * Structured JSON logs: one line per event (DESIGN.md §5). Never pass message bodies or tokens.
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
