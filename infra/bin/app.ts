/**
 * CDK app entry (`cdk.json` → `npx tsx infra/bin/app.ts`). Synthesizes without Docker and without AWS
 * credentials: the stack is environment-agnostic (account/region resolved at deploy), Lambdas are bundled by
 * local esbuild, and the runner image is only staged (built by the CLI at deploy).
 *
 * Context: `atende:stage` (default `prod`), `atende:runnerDesiredCount` (default 1),
 * `atende:retainData` (default true).
 */
import { App } from "aws-cdk-lib";
import { buildApp } from "../lib/app.ts";

buildApp(new App());
