/**
 * Baileys auth state in DynamoDB (one item per key, epoch fencing) and shard leases (docs/architecture.md#3-the-table).
 */
import { describe, expect, it } from "vitest";
import { addTransactionCapability, initAuthCreds, proto } from "@whiskeysockets/baileys";
import pino from "pino";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "@atende/shared/db/client";
import { keys } from "@atende/shared/db/keys";
import { FencedError, loadCreds, saveCreds, openDynamoAuthState, wipeAuthState } from "./auth-state.ts";
import { ShardLeases } from "./lease.ts";

const logger = pino({ level: "silent" });

async function itemsOf(whatsappId: number) {
  const out = await ddb().send(
    new QueryCommand({ TableName: tableName(), KeyConditionExpression: "PK = :pk", ExpressionAttributeValues: { ":pk": keys.waPartition(whatsappId) } }),
  );
  return out.Items ?? [];
}

describe("DynamoDB auth state", () => {
  it("keeps creds and every signal key as its own item, and a new socket reads them back identical", async () => {
    const wid = 9001;
    const first = await openDynamoAuthState(wid, 1, logger);
    first.state.creds.me = { id: "5511999990000:3@s.whatsapp.net", name: "Loja" };
    await first.persistCreds();
    const keyStore = addTransactionCapability(first.state.keys, logger, { maxCommitRetries: 3, delayBetweenTriesMs: 10 });
    const preKey = { public: Buffer.from("pub-key-bytes"), private: Buffer.from("priv-key-bytes") };
    await keyStore.transaction(async () => {
      await keyStore.set({
        "pre-key": { "1": preKey, "2": preKey },
        session: { "5511900000001.0": Buffer.from("session-bytes") },
        "app-state-sync-key": { AAAA: { keyData: Buffer.from("k"), timestamp: 5 } },
        "lid-mapping": { "5511900000001": "100000000000001" },
      });
    }, "test");

    const items = await itemsOf(wid);
    expect(items.map((i) => i.SK).sort()).toEqual(
      ["CREDS", "K#app-state-sync-key#AAAA", "K#lid-mapping#5511900000001", "K#pre-key#1", "K#pre-key#2", "K#session#5511900000001.0"].sort(),
    );

    const again = await openDynamoAuthState(wid, 1, logger);
    expect(again.state.creds.me?.id).toBe("5511999990000:3@s.whatsapp.net");
    expect(Buffer.from(again.state.creds.noiseKey.private).equals(Buffer.from(first.state.creds.noiseKey.private))).toBe(true);
    const got = await again.state.keys.get("pre-key", ["1", "3"]);
    expect(Object.keys(got)).toEqual(["1"]);
    expect(Buffer.from(got["1"].private).toString()).toBe("priv-key-bytes");
    const sync = await again.state.keys.get("app-state-sync-key", ["AAAA"]);
    expect(sync.AAAA).toBeInstanceOf(proto.Message.AppStateSyncKeyData);

    await again.state.keys.set({ "pre-key": { "2": null } });
    expect((await itemsOf(wid)).some((i) => i.SK === "K#pre-key#2")).toBe(false);
  });

  it("refuses a creds write from an older lease epoch and wipes everything on logout", async () => {
    const wid = 9002;
    const creds = initAuthCreds();
    await saveCreds(wid, creds, 5);
    await expect(saveCreds(wid, { ...creds, registered: true }, 4)).rejects.toBeInstanceOf(FencedError);
    expect((await loadCreds(wid))?.registered).toBe(false);
    await saveCreds(wid, { ...creds, registered: true }, 6);
    expect((await loadCreds(wid))?.registered).toBe(true);

    const { state } = await openDynamoAuthState(wid, 6, logger);
    await state.keys.set({ session: { a: Buffer.from("x") } });
    await wipeAuthState(wid);
    expect(await itemsOf(wid)).toEqual([]);
    expect(await loadCreds(wid)).toBeNull();
  });

  it("keeps a deposed owner from writing keys once a newer lease claimed the connection", async () => {
    const wid = 9003;
    await saveCreds(wid, initAuthCreds(), 0);
    let fencedCalls = 0;
    const old = await openDynamoAuthState(wid, 3, logger, () => fencedCalls++);
    await old.state.keys.set({ session: { a: Buffer.from("old") } });

    const next = await openDynamoAuthState(wid, 4, logger); // the new owner claims the auth state
    await expect(old.state.keys.set({ session: { a: Buffer.from("stale") } })).rejects.toBeInstanceOf(FencedError);
    expect(fencedCalls).toBe(1); // the transport ends the deposed socket here
    await expect(openDynamoAuthState(wid, 3, logger)).rejects.toBeInstanceOf(FencedError);
    await next.state.keys.set({ session: { b: Buffer.from("new") } });

    const fresh = await openDynamoAuthState(wid, 4, logger);
    const got = await fresh.state.keys.get("session", ["a", "b"]);
    expect(Buffer.from(got.a as Uint8Array).toString()).toBe("old");
    expect(Buffer.from(got.b as Uint8Array).toString()).toBe("new");
    expect(await loadCreds(wid)).not.toBeNull(); // claiming keeps the stored creds
  });
});

describe("shard leases", () => {
  it("lets one task own a shard, hands it over only after expiry with a higher epoch, and fences the old owner", async () => {
    const a = new ShardLeases("task-a", 200);
    const b = new ShardLeases("task-b", 200);
    const e1 = await a.acquire(3);
    expect(e1).toBeGreaterThan(0);
    expect(await b.acquire(3)).toBeNull();
    expect(await a.renew(3)).toBe("renewed");
    expect(await a.stillOwner(3)).toBe(true);

    await new Promise((r) => setTimeout(r, 250));
    const e2 = await b.acquire(3);
    expect(e2).toBe(e1! + 1);
    expect(await a.renew(3)).toBe("lost");
    expect(a.shards()).toEqual([]);
    expect(await b.stillOwner(3)).toBe(true);

    await b.release(3);
    const e3 = await a.acquire(3);
    expect(e3).toBe(e2! + 1);
  });
});
