/** The error table is the one source of statuses: call sites that still pass a status agree with it. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AppError, defineErrors, ERRORS, statusOf } from "./errors.ts";

const ROOTS = ["shared/src", "functions/src", "session-runner/src"].map((r) => join(import.meta.dirname, "..", "..", r));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.ts$/.test(n) && !/\.test\.ts$/.test(n) ? [p] : [];
  });
}

describe("error table", () => {
  it("gives a code its table status and sends data beside it", () => {
    const e = new AppError("ERR_OTHER_OPEN_TICKET", { ticket: { id: 3 } });
    expect(e.status).toBe(409);
    expect(e.toJSON()).toEqual({ error: "ERR_OTHER_OPEN_TICKET", ticket: { id: 3 } });
    expect(new AppError("ERR_NO_TICKET_FOUND").status).toBe(404);
  });

  it("no call site restates a status: the table gives it (except the expired access token's 403)", () => {
    const stated: string[] = [];
    for (const file of ROOTS.flatMap(sources)) {
      for (const m of readFileSync(file, "utf8").matchAll(/new AppError\(([^,()]+), (\d{3})\b/g)) {
        if (m[1] === '"ERR_SESSION_EXPIRED"' && m[2] === "403") continue;
        stated.push(`${file}: ${m[1]} ${m[2]}`);
      }
    }
    expect(stated).toEqual([]);
  });

  it("lets a feature add its own codes, and refuses a second meaning for a code", () => {
    defineErrors({ ERR_TEST_FEATURE: { status: 409, meaning: "test only" } });
    expect(statusOf("ERR_TEST_FEATURE")).toBe(409);
    expect(() => defineErrors({ ERR_NO_TICKET_FOUND: { status: 400, meaning: "other" } })).toThrow(/already defined/);
    expect(Object.values(ERRORS).every((r) => r.meaning.length > 0)).toBe(true);
  });
});
