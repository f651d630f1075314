/** Test helpers of the durable listeners: a process killed right after a chosen write committed. */
import { vi } from "vitest";
import { ddb } from "../db/client.ts";

type Cmd = { constructor: { name: string }; input: Record<string, unknown> };

/**
 * The process dies right after the first write `fact` accepts (a transaction's items, or a single Put or Update as
 * one item) has committed: from then on every DynamoDB call fails (nothing else this process would have written
 * reaches the table). Returns whether it died.
 */
export function dieAfterCommit(fact: (items: Record<string, Record<string, unknown>>[]) => boolean): { died: () => boolean } {
  const client = ddb();
  const send = client.send.bind(client) as (c: unknown, ...r: unknown[]) => Promise<unknown>;
  let dead = false;
  vi.spyOn(client, "send").mockImplementation((async (cmd: Cmd, ...rest: unknown[]) => {
    if (dead) throw Object.assign(new Error("process killed (test)"), { name: "ProcessKilled" });
    const out = await send(cmd, ...rest);
    const name = cmd.constructor.name;
    // A transaction's items, or a single write as one item.
    const items = name === "TransactWriteCommand" ? cmd.input.TransactItems : name === "UpdateCommand" ? [{ Update: cmd.input }] : name === "PutCommand" ? [{ Put: cmd.input }] : [];
    if (fact(items as Record<string, Record<string, unknown>>[])) dead = true;
    return out;
  }) as never);
  return { died: () => dead };
}
