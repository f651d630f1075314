/**
 * Response-schema checks on every route: every operation of the manifest declares a zod
 * `response` schema, and every route is exercised by at least one test, where the pipeline's response contract check
 * (`core/middlewares/response.ts`, on under vitest) parses its answer. A route nobody calls would escape the check.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ZodType } from "zod";
import { checkResponses } from "./core/middlewares/response.ts";
import { manifest } from "./routes.ts";

const root = join(import.meta.dirname, "../../..");

/** Every test file of the repository (unit, integration, browser). */
function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "dist" || name === "cdk.out") return [];
    if (statSync(path).isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** A manifest path as a pattern of the URLs tests write: `{id}` matches a literal segment or a `${…}` interpolation. */
const urlPattern = (path: string) =>
  new RegExp(`${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "(\\$\\{[^}]+\\}|[^/\"'`?\\s]+)")}(["'\`?]|$)`, "m");

describe("route manifest", () => {
  it("declares a zod response schema for every operation", () => {
    const missing = Object.entries(manifest)
      .filter(([, op]) => !(op.response instanceof ZodType))
      .map(([key]) => key);
    expect(Object.keys(manifest).length).toBeGreaterThan(70);
    expect(missing).toEqual([]);
  });

  it("checks answers against their schemas while tests run", () => {
    expect(checkResponses()).toBe(true);
  });

  it("has every route called by some test, so each answer is parsed with its response schema", () => {
    const text = ["functions", "shared", "session-runner", "infra", "test", "web"]
      .flatMap((d) => testFiles(join(root, d)))
      .filter((f) => !f.endsWith("routes.test.ts"))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    const uncalled = Object.keys(manifest).filter((key) => !urlPattern(key.split(" ")[1]).test(text));
    expect(uncalled).toEqual([]);
  });
});
