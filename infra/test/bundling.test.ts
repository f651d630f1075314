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
import { atendeFunction, ESM_REQUIRE_SHIM } from "../lib/function.ts";

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

  it("refuses an entry that does not exist, naming it", () => {
    const stack = new Stack(new App(), "Missing");
    expect(() =>
      atendeFunction(stack, "Nope", { entry: "functions/src/http/nope.ts", environment: {}, description: "x" }),
    ).toThrow("functions/src/http/nope.ts");
  });
});
