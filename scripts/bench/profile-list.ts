/**
 * Profiling aid (not part of `npm run bench`): seeds 1000 tickets with summaries and sends 300 `GET
 * /api/tickets?status=pending` from this process, profiled (`PROFILE_OUT`, default /tmp/list.cpuprofile; `PROFILE=0`:
 * not profiled), printing Node's and DynamoDB Local's CPU per request; run with
 * `node --import tsx scripts/bench/profile-list.ts [query]`.
 */
import { startBenchDynamo } from "./dynamo.ts";
import { cpuMs, dynamoPids } from "./http-load.ts";
import { seedTickets } from "./seed.ts";

process.env.LOG_LEVEL = "silent";
process.env.TABLE_NAME = `prof-${Date.now()}`;
const dynamo = await startBenchDynamo();
const { startLocalStack } = await import("../../infra/local/src/stack.ts");
const stack = await startLocalStack({ port: 0, inMemory: true, dynamoEndpoint: dynamo.endpoint, ttl: false });
const { makeCompany } = await import("../../test/helpers.ts");
const c = await makeCompany();
await seedTickets({
  companyId: c.companyId, whatsappId: 1, userId: c.admin.id, queueIds: [1, 2, 3], n: 1000,
  names: { queues: new Map([[1, { id: 1, name: "A", color: "#111" }], [2, { id: 2, name: "B", color: "#222" }], [3, { id: 3, name: "C", color: "#333" }]]), whatsapp: { id: 1, name: "W", status: "CONNECTED" }, user: { id: c.admin.id, name: "Admin" } },
});
const url = `${stack.url}/api/tickets?${process.argv[2] ?? "status=pending"}`;
for (let i = 0; i < 30; i++) await (await fetch(url, { headers: { authorization: `Bearer ${c.admin.token}` } })).text();
const { Session } = await import("node:inspector/promises");
const session = new Session();
const profiling = process.env.PROFILE !== "0";
if (profiling) {
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
}
const javaPids = dynamoPids(dynamo.port).length ? dynamoPids(dynamo.port) : [dynamo.pid!];
const java0 = javaPids.reduce((a, p) => a + cpuMs(p), 0);
const t0 = performance.now();
const cpu0 = process.cpuUsage();
for (let i = 0; i < 300; i++) {
  const r = await fetch(url, { headers: { authorization: `Bearer ${c.admin.token}` } });
  if (r.status !== 200) throw new Error(await r.text());
  await r.text();
}
const cpu = process.cpuUsage(cpu0);
const java = javaPids.reduce((a, p) => a + cpuMs(p), 0) - java0;
if (profiling) {
  const { profile } = await session.post("Profiler.stop");
  (await import("node:fs")).writeFileSync(process.env.PROFILE_OUT ?? "/tmp/list.cpuprofile", JSON.stringify(profile));
}
// Node's figure includes this process's client side of the requests (fetch), which the bench's separate client does not.
console.log(`ms/req ${(performance.now() - t0) / 300}, node cpu ms/req ${(cpu.user + cpu.system) / 1000 / 300}, DynamoDB Local cpu ms/req ${java / 300}`);
await stack.stop();
await dynamo.stop();
process.exit(0);
