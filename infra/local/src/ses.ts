/**
 * The local Amazon SES (v2 API): `aws-ses-v2-local`, an emulator that accepts `SendEmail` and keeps every email in
 * memory, with an inbox page at `/` and the emails as JSON at `GET /store` (tests read the codes there). The product
 * reaches it through `AWS_ENDPOINT_URL_SESV2`, so the same SDK calls as in the cloud run here.
 *
 * Started on first use (`./lazy.ts`): its address is fixed at start, but the emulator (seconds of module loading) is
 * loaded and started only when the first email or inbox request arrives.
 */
import type { AddressInfo } from "node:net";
import { startLazy } from "./lazy.ts";

/** A running emulator: its SDK endpoint (also the inbox page) and how to stop it. */
export interface SesHandle {
  endpoint: string;
  inboxUrl: string;
  stop(): Promise<void>;
}

/** Starts the emulator's front on `host`:`port` (0 = any free port); the emulator itself starts on the first request. */
export async function startSes(opts: { port?: number; host?: string } = {}): Promise<SesHandle> {
  const host = opts.host ?? "127.0.0.1";
  const front = await startLazy(async () => {
    const sesLocal = (await import("aws-ses-v2-local")).default;
    // A CommonJS module with `exports.default`: Node's ESM import gives the exports object, a bundler the function.
    const server = (sesLocal as unknown as { default?: typeof sesLocal }).default ?? sesLocal;
    const s = await server({ host, port: 0 });
    return {
      endpoint: `http://${host}:${(s.address() as AddressInfo).port}`,
      stop: () =>
        new Promise<void>((res) => {
          s.close(() => res());
          s.closeAllConnections();
        }),
    };
  }, { host, port: opts.port });
  return { endpoint: front.endpoint, inboxUrl: `${front.endpoint}/`, stop: front.stop };
}

/** One email as the emulator's `GET /store` lists it. */
export interface StoredMail {
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  at: number;
}

/** Every email the emulator at `endpoint` received so far (`GET /store`). */
export async function readInbox(endpoint: string): Promise<StoredMail[]> {
  const res = await fetch(`${endpoint}/store`);
  return ((await res.json()) as { emails: StoredMail[] }).emails;
}
