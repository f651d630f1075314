/**
 * One request's DynamoDB calls replayed alone, for `npm run bench`'s `--searchReplay` and `--reportReplay`: where a
 * request's DynamoDB CPU goes.
 */
import { ddb } from "../../shared/src/db/client.ts";
import { settleDeferred } from "../../shared/src/events/index.ts";

/**
 * Where one request's DynamoDB CPU goes (`--searchReplay=<rounds>`, `--reportReplay=<rounds>`): the DynamoDB calls of
 * one GET of each `[label, path]` case, captured on the shared client, each replayed alone `per` times at concurrency 4
 * (`rounds` rounds, the last one kept), with DynamoDB Local's and this process's CPU per call (ms, from `/proc`), and
 * what the call read. Rows for the table: case, call, items, ddb ms, node ms.
 */
export async function replayCalls(baseUrl: string, token: string, cases: [string, string][], ddbPids: number[], cpuMs: (pid: number) => number, rounds = 2, per = 200) {
  const rows: Record<string, unknown>[] = [];
  const client = ddb();
  for (const [label, path] of cases) {
    const get = () => fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
    await get();
    await settleDeferred();
    const captured: { input: unknown; ctor: new (input: unknown) => unknown }[] = [];
    const send = client.send.bind(client);
    client.send = ((cmd: { input: unknown; constructor: new (input: unknown) => unknown }, ...rest: unknown[]) => {
      captured.push({ input: cmd.input, ctor: cmd.constructor });
      return (send as (...a: unknown[]) => Promise<unknown>)(cmd, ...rest);
    }) as unknown as typeof client.send;
    try {
      await get();
      await settleDeferred();
    } finally {
      client.send = send;
    }
    for (const c of captured) {
      const once = (await send(new c.ctor(c.input) as never)) as { Count?: number; Responses?: Record<string, unknown[]>; Item?: unknown };
      const items = once.Count ?? Object.values(once.Responses ?? {}).reduce((a, r) => a + r.length, 0) + (once.Item ? 1 : 0);
      let figures = { ddb: 0, node: 0 };
      for (let r = 0; r < rounds; r++) {
        const d0 = ddbPids.reduce((a, p) => a + cpuMs(p), 0);
        const n0 = cpuMs(process.pid);
        let k = 0;
        await Promise.all(Array.from({ length: 4 }, async () => { while (k++ < per) await send(new c.ctor(c.input) as never); }));
        figures = { ddb: (ddbPids.reduce((a, p) => a + cpuMs(p), 0) - d0) / per, node: (cpuMs(process.pid) - n0) / per };
      }
      const name = c.ctor.name.replace(/Command$/, "");
      const input = c.input as { KeyConditionExpression?: string; ExpressionAttributeValues?: Record<string, unknown>; Limit?: number; RequestItems?: Record<string, { Keys?: unknown[] }>; Key?: Record<string, unknown>; IndexName?: string };
      const what = input.ExpressionAttributeValues?.[":pk"] ?? input.Key?.PK ?? (input.RequestItems ? `${Object.values(input.RequestItems)[0].Keys?.length} keys` : "");
      const row = { case: label, call: `${name}${input.IndexName ? ` ${input.IndexName}` : ""} ${String(what).replace(/^C#\d+#/, "")}${input.Limit ? ` limit ${input.Limit}` : ""}`, items, "ddb ms": Math.round(figures.ddb * 100) / 100, "node ms": Math.round(figures.node * 100) / 100 };
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  }
  return rows;
}
