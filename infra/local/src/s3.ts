/**
 * S3 on one machine (docs/architecture.md#2-one-machine-npm-start): `s3rver` on a free loopback port, objects under `directory`, with the media
 * bucket created and its CORS open to the local origins so presigned browser uploads and downloads work.
 * Signatures are checked for a known access key only (the process's dummy key is registered), not for the secret.
 */
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";

const require = createRequire(import.meta.url);

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverCtor = new (opts: Record<string, unknown>) => S3rverInstance;

export interface S3Handle {
  /** `AWS_ENDPOINT_URL_S3` (path-style). */
  endpoint: string;
  stop(): Promise<void>;
}

/** The bucket CORS document: the given origins may GET/PUT/POST/HEAD/DELETE with any header; ETag exposed. */
export function corsXml(origins: string[]): string {
  const rule = (origin: string) =>
    `<CORSRule><AllowedOrigin>${origin}</AllowedOrigin>${["GET", "PUT", "POST", "HEAD", "DELETE"].map((m) => `<AllowedMethod>${m}</AllowedMethod>`).join("")}` +
    `<AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule>`;
  return `<CORSConfiguration>${origins.map(rule).join("")}</CORSConfiguration>`;
}

/** Starts s3rver with `bucket` (CORS for `origins`) persisted in `directory`. */
export async function startS3(opts: { directory: string; bucket: string; origins: string[]; accessKeyId?: string; port?: number }): Promise<S3Handle> {
  mkdirSync(opts.directory, { recursive: true });
  const S3rver = require("s3rver") as S3rverCtor;
  if (opts.accessKeyId && opts.accessKeyId !== "S3RVER") {
    const account = require("s3rver/lib/models/account.js") as { DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void } };
    account.DUMMY_ACCOUNT.createKeyPair(opts.accessKeyId, "unchecked");
  }
  const server = new S3rver({
    address: "127.0.0.1",
    port: opts.port ?? 0,
    silent: true,
    directory: opts.directory,
    allowMismatchedSignatures: true,
    vhostBuckets: false,
    configureBuckets: [{ name: opts.bucket, configs: [corsXml(opts.origins)] }],
  });
  const addr = await server.run();
  return { endpoint: `http://127.0.0.1:${addr.port}`, stop: () => server.close() };
}
