import { defineConfig } from "vitest/config";

// The AWS SDK's notice that Node 20 support ends (printed once per process) says nothing about the tests.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";

/** One run for every test: unit, integration (DynamoDB Local), CDK assertions, browser (playwright-core + chromium). */
export default defineConfig({
  test: {
    include: ["{shared,functions,session-runner,infra,web,test}/**/*.test.{ts,tsx}"],
    exclude: ["**/node_modules/**", "**/dist/**", "**/cdk.out/**"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup-table.ts"],
    testTimeout: 30000,
    hookTimeout: 60000,
    pool: "forks",
    fileParallelism: true,
    maxWorkers: 2,
  },
});
