/**
 * `npm start`'s server process: starts the local stack on `PORT` (default 3000) with data in `.data/<port>/`
 * (`DATA_DIR` overrides; `--fresh` wipes it first; `data-dir.ts`), prints the URL and the local admin login, and stops everything on Ctrl-C / SIGTERM.
 * Exit code 1 with one line when it cannot start (e.g. Java missing, port in use).
 */
import { javaProblem } from "./dynamo.ts";
import { localDataDir } from "./data-dir.ts";
import { REPO_ROOT, startLocalStack } from "./stack.ts";

const problem = javaProblem();
if (problem) {
  console.error(problem);
  process.exit(1);
}

const fresh = process.argv.includes("--fresh");
const port = Number(process.env.PORT ?? 3000);
process.env.LOG_LEVEL ??= "warn";

let stack: Awaited<ReturnType<typeof startLocalStack>>;
try {
  stack = await startLocalStack({ port, fresh, dataDir: localDataDir(REPO_ROOT, port, process.env.DATA_DIR), log: true });
} catch (err) {
  const e = err as NodeJS.ErrnoException;
  console.error(e.code === "EADDRINUSE" ? `Port ${port} is in use. Start on another one with: PORT=3001 npm start` : `Atende could not start: ${e.message}`);
  process.exit(1);
}

const { SEED_ADMIN_EMAIL, SEED_ADMIN_PASSWORD } = await import("@atende/shared/seed/seed");
console.log(`\nAtende is running at ${stack.url}`);
console.log(`Login: ${SEED_ADMIN_EMAIL} / ${SEED_ADMIN_PASSWORD}`);
console.log(`Mail inbox (password-reset codes): ${stack.mailInbox}\n`);

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping Atende...`);
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await stack.stop();
  console.log("Stopped.");
  process.exit(0);
};
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
// Started by `npm start` (scripts/start.mjs) with an IPC channel: its closing means that process is gone.
if (process.send) process.on("disconnect", () => void shutdown("npm start ended"));
