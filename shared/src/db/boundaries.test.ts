/**
 * The repository boundary (docs/architecture.md#3-the-table): DynamoDB commands are sent only from a feature's `repository.ts` and the
 * listed storage modules, never from a service, an HTTP or WebSocket handler, or the web. A new file that needs the
 * table goes into its feature's repository (or, for plumbing, into this list on purpose).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../../..");

/** Files (outside `repository.ts` and `shared/src/db/`) that may talk to DynamoDB: storage plumbing, not features. */
const STORAGE_MODULES = new Set([
  "shared/src/auth/throttle.ts",
  "shared/src/auth/ws-ticket.ts",
  "shared/src/events/outbox.ts",
  "shared/src/ingest/parking.ts",
  "shared/src/realtime/connections.ts",
  "shared/src/search/index.ts",
  "shared/src/search/writes.ts",
  "shared/src/search/backfill.ts",
  "shared/src/tickets/row.ts",
  "shared/src/seed/seed.ts",
  "session-runner/src/auth-state.ts",
  "session-runner/src/command-claims.ts",
  "session-runner/src/lease.ts",
]);

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

/** True when the file imports DynamoDB commands or sends through the shared client. */
const talksToDynamo = (path: string) => {
  const text = readFileSync(join(root, path), "utf8");
  return /from\s+["']@aws-sdk\/(lib-dynamodb|client-dynamodb)["']/.test(text) || /from\s+["'][^"']*db\/client(\.ts)?["']/.test(text);
};

describe("repository boundary", () => {
  it("finds the product's sources", () => {
    expect(files.filter((f) => f.endsWith("service.ts")).length).toBeGreaterThan(10);
  });

  it("no service imports DynamoDB commands or the client: they call their feature's repository", () => {
    expect(files.filter((f) => /service\.ts$/.test(f) && talksToDynamo(f))).toEqual([]);
  });

  it("no HTTP or WebSocket handler and nothing in the web talks to DynamoDB", () => {
    expect(files.filter((f) => /^(functions|web)\//.test(f) && talksToDynamo(f))).toEqual([]);
  });

  it("only repositories, shared/src/db and the listed storage modules do", () => {
    const others = files.filter((f) => talksToDynamo(f) && !f.endsWith("/repository.ts") && !f.startsWith("shared/src/db/") && !STORAGE_MODULES.has(f));
    expect(others).toEqual([]);
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
