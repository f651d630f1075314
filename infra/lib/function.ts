/**
 * One Lambda of Atende (docs/deploy.md#what-it-creates): Node.js 24 on ARM64, bundled by `NodejsFunction` with the esbuild
 * installed at the repository root (never Docker), ESM output with a `require` shim for CommonJS
 * dependencies, the AWS SDK v3 left to the runtime, structured JSON logs in a log group kept one month.
 */
import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { Architecture, LoggingFormat, Runtime } from "aws-cdk-lib/aws-lambda";
import { NodejsFunction, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import { LogGroup, RetentionDays } from "aws-cdk-lib/aws-logs";
import type { Construct } from "constructs";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Absolute path of the repository root (where `package-lock.json` and `cdk.json` live). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Banner giving ESM bundles a CommonJS `require` (some dependencies still `require()` Node built-ins). */
export const ESM_REQUIRE_SHIM =
  "import { createRequire as __atendeCreateRequire } from 'node:module'; const require = __atendeCreateRequire(import.meta.url);";

export interface AtendeFunctionProps {
  /** Entry file relative to the repository root, e.g. `functions/src/http/tickets.ts` (must export `handler`). */
  entry: string;
  /** Environment shared by every function (TABLE_NAME, MEDIA_BUCKET, ...). */
  environment: Record<string, string>;
  description: string;
  /** Seconds; default 29 (the HTTP API's own integration limit is 30 s). */
  timeoutSeconds?: number;
  /** MB; default 1024 (bcrypt and the AWS SDK clients are CPU-bound at cold start). */
  memorySize?: number;
  /**
   * Worker-thread modules the code starts by URL (`new Worker(new URL("./x.mjs", import.meta.url))`), relative to the
   * repository root: each is bundled on its own, with its dependencies, beside `index.mjs` under its own file name.
   */
  workers?: string[];
}

/** V8 options for every Node process of the product (the Lambdas here; `scripts/start.mjs` and the bench locally). */
export const NODE_RUNTIME_OPTIONS = "--max-semi-space-size=32";

/**
 * Creates one Node.js 24 ARM64 function bundled by local esbuild.
 * Throws (at synth) when `entry` does not exist: every manifest area must have its module.
 */
export function atendeFunction(scope: Construct, id: string, props: AtendeFunctionProps): NodejsFunction {
  const entry = path.join(REPO_ROOT, props.entry);
  if (!existsSync(entry)) throw new Error(`Lambda entry ${props.entry} does not exist`);
  for (const w of props.workers ?? []) if (!existsSync(path.join(REPO_ROOT, w))) throw new Error(`Worker module ${w} does not exist`);
  const logGroup = new LogGroup(scope, `${id}Logs`, {
    retention: RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  return new NodejsFunction(scope, id, {
    entry,
    handler: "handler",
    description: props.description,
    runtime: Runtime.NODEJS_24_X,
    architecture: Architecture.ARM_64,
    memorySize: props.memorySize ?? 1024,
    timeout: Duration.seconds(props.timeoutSeconds ?? 29),
    // A larger young generation: a list page allocates a few MB (items, views, the JSON body), and with the default
    // semi-space V8 scavenges several times per request (measured locally: ~25% less Node CPU per tab page).
    environment: { NODE_OPTIONS: NODE_RUNTIME_OPTIONS, ...props.environment },
    logGroup,
    loggingFormat: LoggingFormat.JSON,
    projectRoot: REPO_ROOT,
    depsLockFilePath: path.join(REPO_ROOT, "package-lock.json"),
    bundling: {
      format: OutputFormat.ESM,
      target: "node24",
      platform: "node",
      minify: true,
      sourceMap: false,
      externalModules: ["@aws-sdk/*"],
      mainFields: ["module", "main"],
      banner: ESM_REQUIRE_SHIM,
      forceDockerBundling: false,
      ...(props.workers?.length
        ? {
            commandHooks: {
              beforeBundling: () => [],
              beforeInstall: () => [],
              afterBundling: (inputDir: string, outputDir: string) =>
                props.workers!.map(
                  (w) =>
                    `"${path.join(inputDir, "node_modules", ".bin", "esbuild")}" "${path.join(inputDir, w)}" --bundle --platform=node --target=node24 --format=esm --minify --log-level=warning --banner:js=${JSON.stringify(ESM_REQUIRE_SHIM)} --outfile="${path.join(outputDir, path.basename(w))}"`,
                ),
            },
          }
        : {}),
    },
  });
}
