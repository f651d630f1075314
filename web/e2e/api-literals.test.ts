/**
 * Every API call of a feature goes through the contract's `call("METHOD /api/path", ...)` (docs/adding-a-feature.md):
 * no feature spells an API path itself, imports the raw client (`apiRequest`) or calls `fetch` on the API, so each
 * request and answer keeps the types of its operation in `shared/src/<feature>/contract.ts`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { manifest } from "@atende/functions/http/routes";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const FEATURES = join(import.meta.dirname, "../src/features");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) && !e.name.includes(".test.") ? [join(dir, e.name)] : [],
  );
}

/** The manifest's paths without `/api`, each `{param}` as `{}`: `/tags/{}`, `/tags/list`, ... */
const apiPaths = new Set(Object.values(manifest).map((op) => op.path.replace(/^\/api/, "").replace(/\{[^}]+\}/g, "{}")));

/** A string or template literal as a path pattern (`/tags/${id}` → `/tags/{}`), query string dropped. */
function pattern(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text.split("?")[0];
  if (ts.isTemplateExpression(node)) return (node.head.text + node.templateSpans.map((s) => `{}${s.literal.text}`).join("")).split("?")[0];
  return undefined;
}

/** The raw API calls of one source text, as `file:line what`. `appRoutes` are the SPA's own paths (also "/tags"...). */
export function rawApiCalls(file: string, source: string, appRoutes: Set<string> = new Set()): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const hit = (node: ts.Node, what: string) => found.push(`${file}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${what}`);
  const visit = (node: ts.Node) => {
    const p = pattern(node);
    if (p !== undefined) {
      if (/^\/api(\/|$)/.test(p)) hit(node, `API path ${p}`);
      else if (apiPaths.has(p) && !appRoutes.has(p)) hit(node, `API path ${p} (without /api)`);
    }
    if (ts.isImportDeclaration(node) && /api\/client(\.ts)?$/.test((node.moduleSpecifier as ts.StringLiteral).text)) {
      const names = node.importClause?.namedBindings;
      if (names && ts.isNamedImports(names)) for (const n of names.elements) if (n.name.text === "apiRequest") hit(n, "imports apiRequest");
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "fetch") {
      // The sandbox's simulated phone is not the API: `/sim/...` is the one fetch a feature may make.
      const target = node.arguments[0] && pattern(node.arguments[0]);
      if (!target?.startsWith("/sim/")) hit(node, "fetch outside /sim/");
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe("the web contract", () => {
  it("finds the raw calls it forbids (the tags feature's former client among them)", () => {
    const old = [
      'import { apiRequest } from "../../api/client.ts";',
      'export const list = () => apiRequest("GET", "/tags/list");',
      `export const update = (id: number, form: unknown) => apiRequest("PUT", \`/tags/\${id}\`, { body: form });`,
      'export const v = () => fetch("/api/version");',
      'export const ok = () => call("GET /api/tags/list");',
    ].join("\n");
    const found = rawApiCalls("old.ts", old, new Set(["/tags"]));
    expect(found).toEqual([
      "old.ts:1 imports apiRequest",
      "old.ts:2 API path /tags/list (without /api)",
      "old.ts:3 API path /tags/{} (without /api)",
      "old.ts:4 fetch outside /sim/",
      "old.ts:4 API path /api/version",
    ]);
  });

  it("has no literal API path, raw client or fetch left in web/src/features", async () => {
    const { features } = await import("../src/features/registry.tsx");
    // React-router paths as patterns: "/tickets/:ticketId?" → "/tickets/{}" and "/tickets".
    const asPatterns = (path: string) => [path.replace(/\/:[^/]+\?$/, ""), path.replace(/:[^/?]+\??/g, "{}")];
    const paths = features.flatMap((f) => [...f.routes.map((r) => r.path), ...(f.publicRoutes ?? []).map((r) => r.path), f.menu?.path ?? ""]);
    const appRoutes = new Set(paths.flatMap(asPatterns));
    const files = sources(FEATURES);
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((f) => rawApiCalls(relative(FEATURES, f), readFileSync(f, "utf8"), appRoutes));
    expect(found).toEqual([]);
  }, 120_000); // importing every feature's module graph takes over 30 s on a busy 2-core machine
});
