/**
 * Per test file: points the SDK at the run's DynamoDB Local and creates a fresh table, so files never
 * see each other's data. Runs before the file's own imports are evaluated.
 */
import { randomUUID } from "node:crypto";
import { afterEach, inject } from "vitest";
import { resetConfig } from "../shared/src/config.ts";
import { ensureTable, resetDdb } from "../shared/src/db/client.ts";

process.env.AWS_ENDPOINT_URL_DYNAMODB = inject("dynamoEndpoint" as never) as string;
process.env.AWS_ACCESS_KEY_ID ??= "local";
process.env.AWS_SECRET_ACCESS_KEY ??= "local";
process.env.AWS_REGION ??= "us-east-1";
process.env.TABLE_NAME = `t-${randomUUID()}`;
process.env.JWT_SECRET ??= "test-secret-test-secret-test-secret";
process.env.LOG_LEVEL ??= "silent";
resetConfig();
resetDdb();
await ensureTable();
// The composition root of the domain events, as every entry point loads it (after the environment above is set).
await import("../shared/src/events/wiring.ts");

// A realtime frame that does not match its schema (`defineFrames`) fails the test that produced it, as an answer that
// does not match its contract does (docs/architecture.md §4).
const { assertNoFrameViolations } = await import("../shared/src/events/realtime.ts");
afterEach(assertNoFrameViolations);
