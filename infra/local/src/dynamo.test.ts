/**
 * The local stack's stand-ins as a neighbour on the network sees them, and what is left when the stack is killed:
 * DynamoDB Local and fauxqs listen on 127.0.0.1 only, and DynamoDB Local's Java process ends with the Node process
 * that started it, even when that one is killed with SIGKILL (no orphaned JVM).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startSqs } from "./sqs.ts";

/** The addresses (hex, as in /proc/net/tcp and tcp6) of the sockets listening on TCP `port` on this machine. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const out: string[] = [];
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(file, "utf8").split("\n").slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state === "0A" && local?.endsWith(`:${hexPort}`)) out.push(local.slice(0, -5));
    }
  }
  return out;
}
/** 127.0.0.1 as /proc/net/tcp writes it, and as tcp6 writes it (IPv4-mapped ::ffff:127.0.0.1 or ::1). */
const LOOPBACK = new Set(["0100007F", "0000000000000000FFFF00000100007F", "00000000000000000000000001000000"]);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function waitUntil(what: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 250))) if (what()) return true;
  return what();
}

/** A Node process that starts DynamoDB Local the way the stack does and prints `{port, pid}` (the JVM's). */
async function nodeWithDynamo(): Promise<{ node: ReturnType<typeof spawn>; port: number; javaPid: number }> {
  const dynamo = fileURLToPath(new URL("./dynamo.ts", import.meta.url));
  const script = `const { startDynamo } = await import(${JSON.stringify(dynamo)}); const d = await startDynamo(); console.log(JSON.stringify({ port: d.port, pid: d.pid }));`;
  const node = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: node.stdout! }).once("line", resolve);
    node.once("exit", (code) => reject(new Error(`the Node process exited (${code}) before DynamoDB Local answered`)));
  });
  const { port, pid } = JSON.parse(line) as { port: number; pid: number };
  return { node, port, javaPid: pid };
}

describe("the local stack's stand-ins", () => {
  it("fauxqs listens on 127.0.0.1 only", async () => {
    const sqs = await startSqs({ region: "us-east-1", shards: 1 });
    try {
      const addresses = listeningAddresses(Number(new URL(sqs.endpoint).port));
      expect(addresses.length).toBeGreaterThan(0);
      expect(addresses.filter((a) => !LOOPBACK.has(a))).toEqual([]);
    } finally {
      await sqs.stop();
    }
  });

  it("DynamoDB Local listens on 127.0.0.1 only, and its JVM ends when the Node process that started it is killed (SIGKILL: no handler runs)", async () => {
      const { node, port, javaPid } = await nodeWithDynamo();
      try {
        const addresses = listeningAddresses(port);
        expect(addresses.length).toBeGreaterThan(0);
        expect(addresses.filter((a) => !LOOPBACK.has(a))).toEqual([]);
        expect(alive(javaPid)).toBe(true);
        node.kill("SIGKILL");
        expect(await waitUntil(() => !alive(javaPid), 20_000)).toBe(true);
        expect(listeningAddresses(port)).toEqual([]);
      } finally {
        node.kill("SIGKILL");
        if (alive(javaPid)) process.kill(javaPid, "SIGKILL");
      }
  }, 180_000);
});
