/**
 * One preamble for every integration test: a test file declares its company world with `companyWorld(...)` and takes
 * companies of another shape or untouched ones from `fresh(...)` (`test/world.ts`); it never calls `makeCompany` nor
 * `startRealtimeCapture` itself, so a new need (a plan flag off, a super admin, a second connection, an open ticket)
 * is added once to `companyWorld`'s options for every file (docs/adding-a-feature.md, "Tests every feature brings").
 * Browser tests (`web/e2e/`) build their companies in the stack `useBrowserStack` starts and are not held here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");

/** The world builders only `test/world.ts` and `test/helpers.ts` call. */
const BUILDERS = new Set(["makeCompany", "startRealtimeCapture"]);

/**
 * Test files that may call a builder themselves, each with its reason: only tests of those helpers. Keep it short; an
 * entry whose file no longer calls a builder fails (remove it).
 */
const ALLOWED: Record<string, string> = {};

const SKIP = new Set(["node_modules", "dist", "dist-cloud", "cdk.out", ".data", ".bench"]);

function testFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (SKIP.has(name) || name.startsWith(".")) return [];
    if (statSync(path).isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The vitest files of the integration tests (the browser tests of `web/` aside), relative to the repository root. */
const files = ["shared", "functions", "session-runner", "infra", "test"].flatMap((d) => testFiles(join(root, d))).map((p) => relative(root, p));

/** The calls of a builder in `text` (code only: comments and strings do not count), as `name:line`. */
function builderCalls(path: string, text: string): string[] {
  if (![...BUILDERS].some((name) => text.includes(name))) return [];
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) {
      const callee = ts.isPropertyAccessExpression(n.expression) ? n.expression.name : n.expression;
      if (ts.isIdentifier(callee) && BUILDERS.has(callee.text)) found.push(`${callee.text}:${source.getLineAndCharacterOfPosition(n.getStart()).line + 1}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

describe("the integration tests' preamble", () => {
  it("finds a builder called directly, through a namespace or inside a hook, and not one named in a comment or a string", () => {
    const sample = [
      "// makeCompany() in a comment",
      'const s = "startRealtimeCapture()";',
      "beforeAll(async () => { capture = await startRealtimeCapture(); });",
      "const c = await helpers.makeCompany({ dueDate: null });",
      "const w = companyWorld({ other: true });",
    ].join("\n");
    expect(builderCalls("sample.test.ts", sample)).toEqual(["startRealtimeCapture:3", "makeCompany:4"]);
  });

  it("is companyWorld: no integration test file builds a company or starts the realtime capture itself", () => {
    expect(files.length).toBeGreaterThan(40);
    const offenders = files.filter((f) => !(f in ALLOWED)).flatMap((f) => builderCalls(f, readFileSync(join(root, f), "utf8")).map((c) => `${f} ${c}`));
    expect(offenders, "use companyWorld(...) / fresh(...) from test/world.ts (extend its options if a test needs more)").toEqual([]);
    const stale = Object.keys(ALLOWED).filter((f) => !existsSync(join(root, f)) || builderCalls(f, readFileSync(join(root, f), "utf8")).length === 0);
    expect(stale, "allow-list entries whose file no longer calls a builder").toEqual([]);
  });
});
