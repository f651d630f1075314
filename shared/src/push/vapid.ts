/**
 * The VAPID key pair (docs/product/push.md#keys): `VAPID_PUBLIC_KEY` / `VAPID_PRIVATE_KEY` (one machine: generated
 * once into the data folder by the local stack), else the Secrets Manager secret `VAPID_KEYS_ARN` names, holding
 * `{"publicKey": "...", "privateKey": "..."}` (base64url, as `web-push generate-vapid-keys --json` prints them).
 * Kept for the life of the process once read; a failed read is not kept (the next call reads again).
 */
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import webpush from "web-push";
import { z } from "zod";
import { getConfig } from "../config.ts";
import { sdkLogger } from "../log.ts";

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

const StoredKeys = z.object({ publicKey: z.string().min(80), privateKey: z.string().min(40) });

let keysPromise: Promise<VapidKeys | null> | undefined;
let client: SecretsManagerClient | undefined;

/** The key pair, or null when this deployment has none (push is then off: no key is served, nothing is sent). */
export function vapidKeys(): Promise<VapidKeys | null> {
  if (keysPromise) return keysPromise;
  const p = (async () => {
    const cfg = getConfig();
    if (cfg.VAPID_PUBLIC_KEY && cfg.VAPID_PRIVATE_KEY) return { publicKey: cfg.VAPID_PUBLIC_KEY, privateKey: cfg.VAPID_PRIVATE_KEY, subject: cfg.VAPID_SUBJECT };
    if (!cfg.VAPID_KEYS_ARN) return null;
    client ??= new SecretsManagerClient({ logger: sdkLogger });
    const out = await client.send(new GetSecretValueCommand({ SecretId: cfg.VAPID_KEYS_ARN }));
    const parsed = StoredKeys.safeParse(JSON.parse(out.SecretString ?? "null"));
    // A secret still holding its placeholder (keys not yet generated, docs/deploy.md) means push is off.
    return parsed.success ? { ...parsed.data, subject: cfg.VAPID_SUBJECT } : null;
  })();
  keysPromise = p;
  p.catch(() => {
    if (keysPromise === p) keysPromise = undefined;
  });
  return p;
}

/** Forgets the kept keys (tests and the local stack switch them). */
export function resetVapidKeys(): void {
  keysPromise = undefined;
}

/** A new VAPID key pair, base64url (kept once generated: every device subscribed with its public key). */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  return webpush.generateVAPIDKeys();
}
