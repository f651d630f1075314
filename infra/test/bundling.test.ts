/**
 * Proves the real Lambda bundling: `atendeFunction` bundles an area module with the repository's
 * esbuild (no Docker) into one ESM file for Node.js 24 with the `require` shim, leaving the AWS SDK v3 to the
 * runtime and bundling everything else (middy, zod, jose, our shared code).
 */
import { App, Stack } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Worker } from "node:worker_threads";
import { AREA_WORKERS, XLS_WORKER } from "../lib/api.ts";
import { atendeFunction, ESM_REQUIRE_SHIM, REPO_ROOT } from "../lib/function.ts";

describe("Lambda bundling", () => {
  it("bundles an area module with local esbuild into one ESM index.mjs exporting handler", () => {
    const app = new App();
    const stack = new Stack(app, "BundlingProbe");
    atendeFunction(stack, "Auth", {
      entry: "functions/src/http/auth.ts",
      environment: { STAGE: "test" },
      description: "probe",
    });
    const assembly = app.synth();
    const manifest = JSON.parse(readFileSync(path.join(assembly.directory, "BundlingProbe.assets.json"), "utf8")) as {
      files: Record<string, { source: { path: string; packaging: string } }>;
    };
    const code = Object.values(manifest.files).find((f) => f.source.packaging === "zip")!;
    const bundle = path.join(assembly.directory, code.source.path, "index.mjs");
    expect(existsSync(bundle)).toBe(true);
    const js = readFileSync(bundle, "utf8");
    expect(js.startsWith(ESM_REQUIRE_SHIM)).toBe(true);
    // The handler is exported from an ES module, and our own code is inside (the error catalogue's codes).
    expect(js).toMatch(/export\s*\{[^}]*\bas handler\b[^}]*\}/);
    expect(js).toContain("ERR_VALIDATION");
    // The AWS SDK stays external (imported from the runtime), middy and zod are bundled.
    expect(js).toMatch(/from\s*"@aws-sdk\/client-dynamodb"/);
    expect(js).not.toMatch(/from\s*"(@middy\/core|zod|jose)"/);

    const fn = Template.fromStack(stack).findResources("AWS::Lambda::Function");
    const [props] = Object.values(fn).map((f) => (f as { Properties: Record<string, unknown> }).Properties);
    expect(props.Runtime).toBe("nodejs24.x");
    expect(props.Architectures).toEqual(["arm64"]);
    expect(props.Handler).toBe("index.handler");
  }, 120_000);

  it("bundles a worker module an area starts beside its index.mjs: the contacts import reads a real .xls with it", async () => {
    const app = new App();
    const stack = new Stack(app, "WorkerProbe");
    atendeFunction(stack, "ContactLists", { entry: "functions/src/http/contactLists.ts", environment: {}, description: "probe", workers: AREA_WORKERS.contactLists });
    const assembly = app.synth();
    const manifest = JSON.parse(readFileSync(path.join(assembly.directory, "WorkerProbe.assets.json"), "utf8")) as {
      files: Record<string, { source: { path: string; packaging: string } }>;
    };
    const dir = path.join(assembly.directory, Object.values(manifest.files).find((f) => f.source.packaging === "zip")!.source.path);
    const worker = path.join(dir, path.basename(XLS_WORKER));
    expect(existsSync(path.join(dir, "index.mjs"))).toBe(true);
    expect(readFileSync(worker, "utf8")).not.toMatch(/from\s*"@e965\/xlsx"/); // the reader is inside, not imported
    const xls = readFileSync(path.join(REPO_ROOT, "..", "shared", "fixtures", "contacts", "messy-contacts.xls"));
    const rows = await new Promise<{ row: number; cells: string[] }[]>((resolve, reject) => {
      const w = new Worker(worker, { workerData: xls });
      w.once("message", resolve);
      w.once("error", reject);
    });
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.flatMap((r) => r.cells).join(" ")).toContain("João");
  }, 120_000);

  it("refuses an entry that does not exist, naming it", () => {
    const stack = new Stack(new App(), "Missing");
    expect(() =>
      atendeFunction(stack, "Nope", { entry: "functions/src/http/nope.ts", environment: {}, description: "x" }),
    ).toThrow("functions/src/http/nope.ts");
  });
});
