/**
 * Comments and docs a newcomer can follow: no source comment and no page of the repository's docs cites an issue
 * number (the tracker's numbered issues and their sections) or a document that is not in the repository (the product specs, the design notes, the old
 * system's study). A rule is said in the product's terms, or cited as a page of `docs/` (`docs/product/<area>.md#anchor`,
 * `docs/architecture.md`), and every such citation names a page and a heading that exist.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");

/** An issue number: the word issue, then a number (with or without `#`). */
const ISSUE = /\bissues?\s*#?\d+/i;
/** Documents outside the repository: the design notes, the product specs (by file or by section), the old system's study. */
const OUTSIDE = [/\b(DESIGN|attendance|administration|whaticket)\.md\b/i, /\bspecs?\s*§/i, /\b(attendance|administration)\s+§/i, /\bbackground\/\w/i];

const SKIP = new Set(["node_modules", "dist", "dist-cloud", "cdk.out", ".data", ".bench", "testing-output"]);

function walk(dir: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (SKIP.has(name) || name.startsWith(".")) return [];
    if (statSync(path).isDirectory()) return walk(path, keep);
    return keep(name) ? [path] : [];
  });
}

const rel = (p: string) => relative(root, p);

/** Every source file of every workspace, the tests and the scripts (TypeScript, TSX, ESM scripts, CSS). */
const sources = ["shared", "functions", "session-runner", "web", "infra", "scripts", "test"]
  .flatMap((d) => walk(join(root, d), (n) => /\.(ts|tsx|mjs|css)$/.test(n) && !n.endsWith(".d.ts")))
  .map(rel);

/** The repository's documentation: `docs/`, the README files beside the code, and the root README. */
const docs = [
  ...walk(join(root, "docs"), (n) => n.endsWith(".md")),
  ...walk(join(root, "shared/src"), (n) => n === "README.md"),
  ...walk(join(root, "functions/src"), (n) => n === "README.md"),
  join(root, "README.md"),
].map(rel);

/** The comments of a source file, each with its line: TypeScript's own comment ranges for code, `/* … *\/` for CSS. */
function commentsOf(path: string): { line: number; text: string }[] {
  const text = readFileSync(join(root, path), "utf8");
  const lineOf = (pos: number) => text.slice(0, pos).split("\n").length;
  if (path.endsWith(".css")) return [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => ({ line: lineOf(m.index), text: m[0] }));
  const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : path.endsWith(".mjs") ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const seen = new Map<number, { line: number; text: string }>();
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) if (!seen.has(r.pos)) seen.set(r.pos, { line: lineOf(r.pos), text: text.slice(r.pos, r.end) });
  };
  // Every comment is trivia before some token: walk every token (getChildren includes punctuation and end of file).
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...seen.values()];
}

/** `path:line: excerpt` for each comment or doc line of `path` that cites an issue or an outside document. */
function citations(path: string, chunks: { line: number; text: string }[]): string[] {
  return chunks.flatMap(({ line, text }) =>
    text.split("\n").flatMap((l, i) => (ISSUE.test(l) || OUTSIDE.some((re) => re.test(l)) ? [`${path}:${line + i}: ${l.trim().slice(0, 100)}`] : [])),
  );
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(page: string): Set<string> {
  const text = readFileSync(join(root, page), "utf8");
  return new Set(
    [...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) =>
      m[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, "")
        .replace(/ /g, "-"),
    ),
  );
}

/** Citations of a docs page (`docs/<page>.md#<anchor>`, or a relative link from a page of `docs/`) whose page or heading is missing. */
function brokenDocLinks(path: string, text: string): string[] {
  const out: string[] = [];
  const cited = [...text.matchAll(/\bdocs\/([\w/-]+\.md)(?:#([\w-]+))?/g)].map((m) => ({ page: `docs/${m[1]}`, anchor: m[2] }));
  if (path.startsWith("docs/")) {
    const dir = path.split("/").slice(0, -1).join("/");
    for (const m of text.matchAll(/\]\((?!https?:)([\w./-]+\.md)(?:#([\w-]+))?\)/g)) {
      const parts = `${dir}/${m[1]}`.split("/");
      const resolved: string[] = [];
      for (const p of parts) p === ".." ? resolved.pop() : p !== "." && resolved.push(p);
      cited.push({ page: resolved.join("/"), anchor: m[2] });
    }
    for (const m of text.matchAll(/\]\(#([\w-]+)\)/g)) cited.push({ page: path, anchor: m[1] });
  }
  for (const { page, anchor } of cited) {
    if (!existsSync(join(root, page))) out.push(`${path}: ${page} does not exist`);
    else if (anchor && !anchorsOf(page).has(anchor)) out.push(`${path}: ${page} has no heading #${anchor}`);
  }
  return out;
}

/** Files worth parsing: those whose text (comments or code) holds a citation at all. */
const MAYBE = new RegExp([ISSUE, ...OUTSIDE].map((re) => re.source).join("|"), "i");

describe("comments and docs a newcomer can follow", () => {
  it("finds the sources and the docs", () => {
    expect(sources.filter((f) => f.startsWith("web/src/")).length).toBeGreaterThan(50);
    expect(sources.some((f) => f.endsWith(".css"))).toBe(true);
    expect(docs).toContain("docs/architecture.md");
  });

  it("no source comment cites an issue number or a document outside the repository", () => {
    const found = sources.filter((f) => MAYBE.test(readFileSync(join(root, f), "utf8"))).flatMap((f) => citations(f, commentsOf(f)));
    expect(found).toEqual([]);
  });

  it("no page of the docs cites an issue number or a document outside the repository", () => {
    const found = docs.flatMap((f) => citations(f, [{ line: 1, text: readFileSync(join(root, f), "utf8") }]));
    expect(found).toEqual([]);
  });

  it("every docs page a comment or a page cites exists, with the cited heading", () => {
    const fromSources = sources.flatMap((f) => brokenDocLinks(f, readFileSync(join(root, f), "utf8")));
    const fromDocs = docs.flatMap((f) => brokenDocLinks(f, readFileSync(join(root, f), "utf8")));
    expect([...fromSources, ...fromDocs]).toEqual([]);
  });

  it("catches what it is meant to catch", () => {
    const sample = (text: string) => citations("sample.ts", [{ line: 1, text }]);
    expect(sample("// the tick (issue 8 §5)")).toHaveLength(1);
    expect(sample("/** Rules (attendance.md §6; DESIGN.md §3). */")).toHaveLength(1);
    expect(sample("// the spec §9 names")).toHaveLength(1);
    expect(sample("// Issue 9: the bot")).toHaveLength(1);
    expect(sample("/** Who sees a ticket (docs/product/tickets.md#who-sees-a-ticket). */")).toEqual([]);
    expect(anchorsOf("docs/architecture.md").has("2-one-machine-npm-start")).toBe(true);
  });
});
