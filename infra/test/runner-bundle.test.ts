/**
 * The session runner image's build step (`session-runner/Dockerfile` → `infra/lib/runner-bundle.ts`):
 * the runner entry bundles into one ESM file whose only bare imports are dependencies the runtime stage installs.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../lib/function.ts";
import { bundleRunner, runnerExternals } from "../lib/runner-bundle.ts";

describe("session runner bundle", () => {
  it("bundles session-runner/src/main.ts with our shared code inside and only declared dependencies outside", async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), "runner-bundle-")), "main.mjs");
    const external = await bundleRunner(REPO_ROOT, out);
    // shared/src/config.ts is bundled in (its environment schema), not imported at run time.
    expect(readFileSync(out, "utf8")).toContain("SESSION_COMMANDS_QUEUE_URL_PREFIX");
    const bare = external.filter((s) => !s.startsWith("node:"));
    expect(bare.length).toBeGreaterThan(0);
    expect(bare.filter((s) => s.startsWith("@atende/"))).toEqual([]);
    const declared = runnerExternals(REPO_ROOT).filter((e) => !e.endsWith("/*"));
    const undeclared = bare.filter((s) => !declared.some((d) => s === d || s.startsWith(`${d}/`)));
    expect(undeclared).toEqual([]);
  }, 60_000);
});
