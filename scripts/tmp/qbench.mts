import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { startBenchDynamo } from "/work/main/scripts/bench/dynamo.ts";
import { cpuMs, dynamoPids } from "/work/main/scripts/bench/http-load.ts";
import { seedTickets } from "/work/main/scripts/bench/seed.ts";
process.env.LOG_LEVEL = "silent";
process.env.TABLE_NAME = `q-${Date.now()}`;
const dynamo = await startBenchDynamo();
const { startLocalStack } = await import("/work/main/infra/local/src/stack.ts");
await startLocalStack({ port: 0, inMemory: true, dynamoEndpoint: dynamo.endpoint });
const { ddb, tableName } = await import("/work/main/shared/src/db/client.ts");
const { queryTicketIndex } = await import("/work/main/shared/src/tickets/repository.ts");
const n = Number(process.argv[2] ?? 1000);
await seedTickets({ companyId: 7, whatsappId: 1, userId: 1, queueIds: [1, 2, 3], n,
  names: { queues: new Map([[1, { id: 1, name: "A", color: "#111" }], [2, { id: 2, name: "B", color: "#222" }], [3, { id: 3, name: "C", color: "#333" }]]), whatsapp: { id: 1, name: "W", status: "CONNECTED" }, user: { id: 1, name: "Admin" } } });
const { TicketItem } = await import("/work/main/shared/src/tickets/schema.ts");
const SCALARS = ["PK", "SK", ...Object.keys(TicketItem.shape)];
{
  // A packed copy: every row attribute in one JSON string, on the same items.
  const { UpdateCommand } = await import("@aws-sdk/lib-dynamodb");
  const page = await ddb().send(new QueryCommand({ TableName: tableName(), IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :pk", ExpressionAttributeValues: { ":pk": "C#7#S#pending" }, ScanIndexForward: false, Limit: 40 }));
  for (const it of page.Items ?? []) await ddb().send(new UpdateCommand({ TableName: tableName(), Key: { PK: it.PK, SK: it.SK }, UpdateExpression: "SET packed = :p", ExpressionAttributeValues: { ":p": JSON.stringify(it) } }));
  console.log("item bytes ~", JSON.stringify(page.Items?.[0]).length, "attrs", Object.keys(page.Items?.[0] ?? {}).length);
}
const pids = dynamoPids(dynamo.port).length ? dynamoPids(dynamo.port) : [dynamo.pid!];
const java = () => pids.reduce((a, p) => a + cpuMs(p), 0);
const variants: Record<string, () => Promise<unknown>> = {
  scalars: () => ddb().send(new QueryCommand({ TableName: tableName(), IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :pk", ExpressionAttributeValues: { ":pk": "C#7#S#pending" }, ScanIndexForward: false, Limit: 40, ProjectionExpression: SCALARS.map((_, i) => `#s${i}`).join(", "), ExpressionAttributeNames: Object.fromEntries(SCALARS.map((a, i) => [`#s${i}`, a])) })),
  sums: () => ddb().send(new QueryCommand({ TableName: tableName(), IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :pk", ExpressionAttributeValues: { ":pk": "C#7#S#pending" }, ScanIndexForward: false, Limit: 40, ProjectionExpression: "PK, SK, sumContact, sumQueue, sumUser, sumWhatsapp, sumTags" })),
  packed: () => ddb().send(new QueryCommand({ TableName: tableName(), IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :pk", ExpressionAttributeValues: { ":pk": "C#7#S#pending" }, ScanIndexForward: false, Limit: 40, ProjectionExpression: "PK, SK, GSI1PK, GSI1SK, packed" })),
  rowproj: () => ddb().send(new QueryCommand({ TableName: tableName(), IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :pk", ExpressionAttributeValues: { ":pk": "C#7#S#pending" }, ScanIndexForward: false, Limit: 40, ProjectionExpression: "PK, SK, #rev, #row, rowRev, GSI1PK, GSI1SK", ExpressionAttributeNames: { "#rev": "rev", "#row": "row" } })),
  rowonly: () => ddb().send(new QueryCommand({ TableName: tableName(), IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :pk", ExpressionAttributeValues: { ":pk": "C#7#S#pending" }, ScanIndexForward: false, Limit: 40, ProjectionExpression: "#row", ExpressionAttributeNames: { "#row": "row" } })),
  list: () => queryTicketIndex("GSI1", "C#7#S#pending", { limit: 40 }),
  list2: () => queryTicketIndex("GSI1", "C#7#S#pending", { limit: 40 }),
  raw_all: () => ddb().send(new QueryCommand({ TableName: tableName(), IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :pk", ExpressionAttributeValues: { ":pk": "C#7#S#pending" }, ScanIndexForward: false, Limit: 40 })),
  raw_keys: () => ddb().send(new QueryCommand({ TableName: tableName(), IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :pk", ExpressionAttributeValues: { ":pk": "C#7#S#pending" }, ScanIndexForward: false, Limit: 40, ProjectionExpression: "PK, SK" })),
  raw_1: () => ddb().send(new QueryCommand({ TableName: tableName(), IndexName: "GSI1", KeyConditionExpression: "GSI1PK = :pk", ExpressionAttributeValues: { ":pk": "C#7#S#pending" }, ScanIndexForward: false, Limit: 1, ProjectionExpression: "PK, SK" })),
  base_40: () => ddb().send(new QueryCommand({ TableName: tableName(), KeyConditionExpression: "PK = :pk", ExpressionAttributeValues: { ":pk": "C#7#TK#5" }, Limit: 40 })),
};
for (let round = 0; round < 2; round++) {
  for (const [name, f] of Object.entries(variants)) {
    const reps = round === 0 ? 300 : 600;
    const j0 = java(); const c0 = process.cpuUsage(); const t0 = performance.now();
    for (let i = 0; i < reps; i++) await f();
    const c = process.cpuUsage(c0);
    if (round) console.log(name, "ms/q", ((performance.now() - t0) / reps).toFixed(2), "node", ((c.user + c.system) / 1000 / reps).toFixed(2), "java", ((java() - j0) / reps).toFixed(2));
  }
}
process.exit(0);
