// `npm start` (docs/architecture.md#2-one-machine-npm-start): on a fresh clone installs what is missing, checks Java 17+, builds the web app
// when web/dist is missing or older than its sources, then runs the local stack (infra/local/src/main.ts) on PORT
// (default 3000), which prints the URL and the local admin login. Ctrl-C / SIGTERM stop everything cleanly.
// `npm start -- --fresh` wipes .data/ first. Plain Node (no TypeScript) so it runs before anything is installed.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);

// 1. Dependencies (also run by `prestart`; cheap when nothing changed).
await import("./ensure-install.mjs");

// 2. Java 17+ for DynamoDB Local: one clear line when missing.
const java = spawnSync("java", ["-version"], { encoding: "utf8" });
const javaMajor = Number(/version "(\d+)/.exec(`${java.stderr ?? ""}${java.stdout ?? ""}`)?.[1] ?? 0);
if (java.error || java.status !== 0 || javaMajor < 17) {
  console.error(
    `${java.error || java.status !== 0 ? "Java is not installed" : `Java ${javaMajor} is too old`}: DynamoDB Local needs Java 17+. ` +
      "Install it with: sudo apt-get install -y openjdk-17-jre-headless (macOS: brew install openjdk@17; Windows: winget install Microsoft.OpenJDK.17)",
  );
  process.exit(1);
}

// 3. The web app, when its build is missing or older than its sources.
/** Newest modification time (ms) under `path` (files and folders, node_modules and dist skipped). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of readdirSync(path)) {
    if (name === "node_modules" || name === "dist") continue;
    max = Math.max(max, newest(join(path, name)));
  }
  return max;
}
const webPkg = join(root, "web/package.json");
const hasBuild = existsSync(webPkg) && !!JSON.parse(readFileSync(webPkg, "utf8")).scripts?.build;
if (!hasBuild) {
  console.log("Note: web/ has no build script yet; starting without the web app (the API and sockets still run).");
} else {
  const built = existsSync(join(root, "web/dist/index.html")) ? statSync(join(root, "web/dist/index.html")).mtimeMs : 0;
  const sources = Math.max(
    newest(join(root, "web/src")),
    newest(join(root, "web/index.html")),
    newest(join(root, "web/vite.config.ts")),
    newest(join(root, "web/package.json")),
  );
  if (built < sources) {
    console.log("Building the web app (npm run build -w web)...");
    const b = spawnSync("npm", ["run", "build", "-w", "web"], { stdio: "inherit", shell: process.platform === "win32" });
    if (b.status !== 0) {
      console.error("The web app failed to build (see above). Fix it, or run `npm run build -w web` to retry.");
      process.exit(1);
    }
  }
}

// 4. The local stack.
// Node 20 is the supported local runtime, so the SDK's Node-version notice is noise here;
// DEP0066 comes from s3rver's dependencies.
// `--max-semi-space-size=32`: the Lambdas' V8 option (`infra/lib/function.ts` NODE_RUNTIME_OPTIONS), the same here.
const args = ["--max-semi-space-size=32", "--import", "tsx", "--disable-warning=DEP0066", "infra/local/src/main.ts"];
if (process.argv.includes("--fresh")) args.push("--fresh");
// The IPC channel is the child's lifeline: when this process ends in any way (SIGKILL included) the channel closes
// and the stack stops itself (main.ts, "disconnect"), instead of running on as an orphan.
const child = spawn(process.execPath, args, {
  stdio: ["inherit", "inherit", "inherit", "ipc"],
  env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true", ...process.env },
});
// Ctrl-C reaches the whole process group (the child stops itself); SIGTERM sent to us alone is forwarded.
let interrupted = false;
process.on("SIGINT", () => {
  interrupted = true;
});
process.on("SIGTERM", () => {
  interrupted = true;
  child.kill("SIGTERM");
});
child.on("exit", (code, signal) => process.exit(code ?? (signal && !interrupted ? 1 : 0)));
