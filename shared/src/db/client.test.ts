import { DescribeTimeToLiveCommand } from "@aws-sdk/client-dynamodb";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ddb, ensureTable } from "./client.ts";

const ttlStatus = async (name: string) => (await ddb().send(new DescribeTimeToLiveCommand({ TableName: name }))).TimeToLiveDescription?.TimeToLiveStatus;

describe("ensureTable", () => {
  it("creates the table with TTL on expiresAt by default, as the cloud table has it", async () => {
    const name = `ttl-${randomUUID()}`;
    await ensureTable(name);
    expect(await ttlStatus(name)).toBe("ENABLED");
    await ensureTable(name); // idempotent
    expect(await ttlStatus(name)).toBe("ENABLED");
  });

  it("leaves TTL off when asked (the benchmarks' large tables), also on a table that had it on", async () => {
    const fresh = `ttl-${randomUUID()}`;
    await ensureTable(fresh, { ttl: false });
    expect(await ttlStatus(fresh)).toBe("DISABLED");
    const existing = `ttl-${randomUUID()}`;
    await ensureTable(existing);
    await ensureTable(existing, { ttl: false });
    expect(await ttlStatus(existing)).toBe("DISABLED");
  });
});
