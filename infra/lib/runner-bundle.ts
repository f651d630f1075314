/**
 * Bundles the session runner for its image (`session-runner/Dockerfile` runs this file with Node 24's type
 * stripping): `session-runner/src/main.ts` plus the `@atende/shared` sources it imports become one ESM file;
 * every third-party dependency declared by `session-runner` or `shared` stays external and is installed by
 * `npm ci --omit=dev` in the runtime stage. Plain erasable TypeScript only (no enums, no parameter properties).
 */
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** The require shim banner of ESM bundles (same as the Lambdas'). */
const BANNER = "import { createRequire as __atendeCreateRequire } from 'node:module'; const require = __atendeCreateRequire(import.meta.url);";

/** Third-party dependencies of `session-runner` and `shared` (names and their subpaths), kept external. */
export function runnerExternals(root: string): string[] {
  const deps = (p: string) =>
    Object.keys((JSON.parse(readFileSync(path.join(root, p), "utf8")) as { dependencies?: Record<string, string> }).dependencies ?? {}).filter(
      (d) => !d.startsWith("@atende/"),
    );
  const names = [...new Set([...deps("shared/package.json"), ...deps("session-runner/package.json")])];
  return names.flatMap((d) => [d, `${d}/*`]);
}

/**
 * Bundles `<root>/session-runner/src/main.ts` into `outfile` (ESM, Node 24, with a source map).
 * Resolves, once written, with the module specifiers left external (bare packages and `node:` built-ins).
 */
export async function bundleRunner(root: string, outfile: string): Promise<string[]> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ["session-runner/src/main.ts"],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node24",
    outfile,
    external: runnerExternals(root),
    sourcemap: true,
    logLevel: "warning",
    banner: { js: BANNER },
    metafile: true,
  });
  const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
  return [...new Set(imports)];
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await bundleRunner(process.cwd(), path.resolve(process.cwd(), "session-runner/dist/main.mjs"));
}
