/**
 * The local Amazon SES (v2 API): `aws-ses-v2-local`, an emulator that accepts `SendEmail` and keeps every email in
 * memory, with an inbox page at `/` and the emails as JSON at `GET /store` (tests read the codes there). The product
 * reaches it through `AWS_ENDPOINT_URL_SESV2`, so the same SDK calls as in the cloud run here.
 */
import type { AddressInfo } from "node:net";
import sesLocal from "aws-ses-v2-local";

// A CommonJS module with `exports.default`: Node's ESM import gives the exports object, a bundler the function.
const server = (sesLocal as unknown as { default?: typeof sesLocal }).default ?? sesLocal;

/** A running emulator: its SDK endpoint (also the inbox page) and how to stop it. */
export interface SesHandle {
  endpoint: string;
  inboxUrl: string;
  stop(): Promise<void>;
}

/** Starts the emulator on `host`:`port` (0 = any free port). */
export async function startSes(opts: { port?: number; host?: string } = {}): Promise<SesHandle> {
  const host = opts.host ?? "127.0.0.1";
  const s = await server({ host, port: opts.port ?? 0 });
  const { port } = s.address() as AddressInfo;
  const endpoint = `http://${host}:${port}`;
  return {
    endpoint,
    inboxUrl: `${endpoint}/`,
    stop: () =>
      new Promise<void>((res) => {
        s.close(() => res());
        s.closeAllConnections();
      }),
  };
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
