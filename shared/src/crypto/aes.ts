/**
 * AES-256-GCM sealing of short strings at rest: `<version>.<iv>.<tag>.<ciphertext>` (base64url parts). The callers
 * own their keys (connection API tokens, the local key of integration credentials).
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** Seals `text` with the 32-byte `key`, tagged `version`. */
export function aesGcmSeal(key: Buffer, text: string, version = "v1"): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ct = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return [version, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ct.toString("base64url")].join(".");
}

/** Opens what {@link aesGcmSeal} sealed. @throws Error when the version differs, or it was sealed with another key or altered. */
export function aesGcmOpen(key: Buffer, sealed: string, version = "v1"): string {
  const [v, iv, tag, ct] = sealed.split(".");
  if (v !== version || !iv || !tag || ct === undefined) throw new Error("unreadable sealed value");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
}
