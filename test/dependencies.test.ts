/**
 * The import rules of every workspace (`.dependency-cruiser.cjs`, run with dependency-cruiser): no runtime import
 * cycle, DynamoDB only in repositories and the listed storage modules, shared never imports handlers, the web bundles
 * no server code, the events' leaf stays a leaf and only entry points import the composition root
 * (docs/architecture.md §10). In `npm test` through this file, so CI runs it.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const run = promisify(execFile);
const WORKSPACES = ["shared/src", "functions/src", "session-runner/src", "web/src", "infra/lib", "infra/local/src", "infra/bin"];

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: { name: string }[];
}

/** Runs dependency-cruiser over `paths` (from `cwd`) with `config`; its violations, each as `rule: from → to`. */
async function cruise(paths: string[], config: string, cwd = root): Promise<string[]> {
  const bin = join(root, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
  const { stdout } = await run(process.execPath, [bin, ...paths, "--config", config, "--output-type", "json", "--no-progress"], {
    cwd,
    maxBuffer: 256 * 1024 * 1024,
  }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? "" }));
  const result = JSON.parse(stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  expect(result.summary.totalCruised).toBeGreaterThan(0);
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.cycle?.length ? v.cycle.map((c) => c.name).join(" → ") : v.to}`);
}

describe("import rules", () => {
  it("hold in every workspace", async () => {
    expect(await cruise(WORKSPACES, ".dependency-cruiser.cjs")).toEqual([]);
  }, 240_000);

  const dir = mkdtempSync(join(tmpdir(), "atende-cycles-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("fail on a runtime import cycle, not on one made only of type imports", async () => {
    const files: Record<string, string> = {
      "a.ts": 'import { b } from "./b.ts";\nexport const a = () => b;\n',
      "b.ts": 'import { a } from "./a.ts";\nexport const b = () => a;\n',
      "c.ts": 'import type { D } from "./d.ts";\nexport type C = { d?: D };\nexport const c = 1;\n',
      "d.ts": 'import type { C } from "./c.ts";\nexport type D = { c?: C };\nexport const d = 2;\n',
      "tsconfig.json": JSON.stringify({ compilerOptions: { module: "ESNext", moduleResolution: "Bundler", allowImportingTsExtensions: true, noEmit: true } }),
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    // The rule as the project's config states it, on this folder.
    const config = join(dir, "rules.cjs");
    writeFileSync(
      config,
      `const { forbidden, options } = require(${JSON.stringify(join(root, ".dependency-cruiser.cjs"))});\n` +
        `module.exports = { forbidden: forbidden.filter((r) => r.name === "no-runtime-cycle"), options: { ...options, tsConfig: { fileName: "tsconfig.json" } } };\n`,
    );
    const found = await cruise(["."], config, dir);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((v) => v.startsWith("no-runtime-cycle: ") && /\ba\.ts\b/.test(v) && /\bb\.ts\b/.test(v))).toBe(true);
    expect(found.some((v) => /\b[cd]\.ts\b/.test(v))).toBe(false);
  }, 120_000);
});
