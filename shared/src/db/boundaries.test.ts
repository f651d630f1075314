/**
 * The patterns an import graph cannot show: the paging loop only in `db/query.ts`, no key spelled outside
 * `db/keys.ts`, rights only through `can()` / `canSee()`. Which module may import which (DynamoDB only in
 * repositories and the listed storage modules, no import cycle, ...) is held by `.dependency-cruiser.cjs`
 * (`test/dependencies.test.ts`; docs/architecture.md §10).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../../..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "dist" || name === "testing") return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$|(^|\.)testkit\.ts$|\.d\.ts$/.test(name) ? [path] : [];
  });
}

/** The product's source files (tests and test kits excluded), relative to the repository root. */
const files = ["shared/src", "functions/src", "session-runner/src", "web/src"].flatMap((d) => sources(join(root, d))).map((p) => relative(root, p));

/**
 * Hand-rolled paging loops of `path`: a loop (for, for-of, while, do) in which a value takes a page's resume key
 * (`x = page.lastKey` or `.LastEvaluatedKey`) and is passed back, in the same loop, to an awaited call, i.e. the next
 * read (as an argument, or as a property of an object argument such as `{startKey: x}`). Each is reported as
 * `path:line`.
 */
function pagingLoops(path: string): string[] {
  const text = readFileSync(join(root, path), "utf8");
  if (!/lastKey|LastEvaluatedKey/.test(text)) return [];
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const isLoop = (n: ts.Node) => ts.isDoStatement(n) || ts.isWhileStatement(n) || ts.isForStatement(n) || ts.isForOfStatement(n) || ts.isForInStatement(n);
  const resumeKeys = (body: ts.Node): Set<string> => {
    const names = new Set<string>();
    const walk = (n: ts.Node): void => {
      if (
        ts.isBinaryExpression(n) &&
        n.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
        ts.isPropertyAccessExpression(n.right) &&
        /^(lastKey|LastEvaluatedKey)$/.test(n.right.name.text)
      ) {
        names.add(n.left.getText(source));
      }
      ts.forEachChild(n, walk);
    };
    walk(body);
    return names;
  };
  const passes = (arg: ts.Expression, names: Set<string>): boolean =>
    names.has(arg.getText(source)) ||
    (ts.isObjectLiteralExpression(arg) &&
      arg.properties.some((p) => (ts.isPropertyAssignment(p) && names.has(p.initializer.getText(source))) || (ts.isShorthandPropertyAssignment(p) && names.has(p.name.text))));
  const visit = (n: ts.Node): void => {
    if (isLoop(n)) {
      const body = (n as ts.IterationStatement).statement;
      const names = resumeKeys(body);
      if (names.size) {
        const call = (m: ts.Node): boolean =>
          (ts.isAwaitExpression(m) && ts.isCallExpression(m.expression) && m.expression.arguments.some((a) => passes(a, names))) || (ts.forEachChild(m, call) ?? false);
        if (call(body)) found.push(`${path}:${source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1}`);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

describe("repository boundary", () => {
  it("finds the product's sources", () => {
    expect(files.filter((f) => f.endsWith("service.ts")).length).toBeGreaterThan(10);
  });

  it("the paging loop (start = page.LastEvaluatedKey) lives only in shared/src/db/query.ts", () => {
    const loops = files.filter((f) => /\b\w+\s*=\s*\w+\.LastEvaluatedKey\s*;/.test(readFileSync(join(root, f), "utf8")));
    expect(loops).toEqual(["shared/src/db/query.ts"]);
  });

  it("no service or adapter pages by hand over a repository's `lastKey`: they iterate the db/query.ts helpers' pages", () => {
    expect(files.filter((f) => f !== "shared/src/db/query.ts").flatMap(pagingLoops)).toEqual([]);
  });

  it("no key or key prefix is spelled outside shared/src/db/keys.ts (code lines, not comments)", () => {
    const spelled = files
      .filter((f) => f !== "shared/src/db/keys.ts")
      .flatMap((f) =>
        readFileSync(join(root, f), "utf8")
          .split("\n")
          .map((line, i) => ({ at: `${f}:${i + 1}`, line }))
          .filter(({ line }) => !/^\s*(\*|\/\/|\/\*)/.test(line) && /["'`][A-Z][A-Z_]{0,11}#/.test(line)),
      )
      .map(({ at }) => at);
    expect(spelled).toEqual([]);
  });
});

describe("one access rule", () => {
  it("decides rights only with can() / canSee() of shared/src/access: no profile or super-flag test elsewhere", () => {
    const inline = [/profile\s*[!=]==?\s*["'`]/, /(?<!!)!(?!!)\s*\w+\.super\b/, /\|\|\s*!*\w+\.super\b/, /\w+\.super\s*\?/];
    const found = files
      .filter((f) => !f.startsWith("shared/src/access/"))
      .flatMap((f) =>
        readFileSync(join(root, f), "utf8")
          .split("\n")
          .map((line, i) => ({ at: `${f}:${i + 1}`, line }))
          .filter(({ line }) => !/^\s*(\*|\/\/|\/\*)/.test(line) && inline.some((re) => re.test(line))),
      )
      .map(({ at }) => at);
    expect(found).toEqual([]);
  });
});
