// Installs dependencies when node_modules is missing or older than package-lock.json (npm start / npm test on a fresh clone).
import { existsSync, statSync } from "node:fs";
import { execSync } from "node:child_process";

const lock = "package-lock.json";
const marker = "node_modules/.package-lock.json";
const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000);
if (stale) {
  console.log("Installing dependencies (npm ci)...");
  execSync("npm ci --no-audit --no-fund", { stdio: "inherit" });
}
