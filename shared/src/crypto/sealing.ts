/**
 * The encryption port for third-party secrets stored at rest (an AI prompt's provider keys): {@link sealSecret} and
 * {@link openSecret}. Two adapters behind one format, chosen by configuration:
 *
 * - the cloud: AWS KMS (`SECRETS_KMS_KEY_ID`), `Encrypt` / `Decrypt` of the secret itself (a provider key is far under
 *   KMS's 4 KB), bound to its owner by the encryption context (`companyId`, `purpose`): a sealed value copied to
 *   another company or another field does not open. Sealed form `kms1.<ciphertext blob, base64url>`.
 * - one machine: AES-256-GCM with a local key (`SECRETS_LOCAL_KEY`, or on the local stage a key derived from
 *   `JWT_SECRET`), the same context as additional authenticated data. Sealed form `aes1.<iv>.<tag>.<ciphertext>`.
 *
 * Either opens what it sealed; a value sealed by the other adapter, altered, or under another context throws.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { DecryptCommand, EncryptCommand, KMSClient } from "@aws-sdk/client-kms";
import { getConfig } from "../config.ts";
import { sdkLogger } from "../log.ts";

/** Whose secret a value is: the owner company and what it is for (e.g. `prompt.apiKey`). */
export interface SealContext {
  companyId: number;
  purpose: string;
}

let kms: KMSClient | undefined;
const kmsClient = () => (kms ??= new KMSClient({ logger: sdkLogger }));

function localKey(): Buffer {
  const cfg = getConfig();
  if (cfg.SECRETS_LOCAL_KEY) return createHash("sha256").update(cfg.SECRETS_LOCAL_KEY, "utf8").digest();
  if (cfg.STAGE === "local" && cfg.JWT_SECRET) return createHash("sha256").update(`atende-secrets-key|${cfg.JWT_SECRET}`, "utf8").digest();
  throw new Error("SECRETS_KMS_KEY_ID or SECRETS_LOCAL_KEY must be set");
}

const aad = (ctx: SealContext) => Buffer.from(`${ctx.companyId}|${ctx.purpose}`, "utf8");
const kmsContext = (ctx: SealContext) => ({ companyId: String(ctx.companyId), purpose: ctx.purpose });

/** Seals `plain` for `ctx` ("" stays "": no secret). Errors: the KMS call's, or no key configured. */
export async function sealSecret(plain: string, ctx: SealContext): Promise<string> {
  if (!plain) return "";
  const keyId = getConfig().SECRETS_KMS_KEY_ID;
  if (keyId) {
    const out = await kmsClient().send(new EncryptCommand({ KeyId: keyId, Plaintext: Buffer.from(plain, "utf8"), EncryptionContext: kmsContext(ctx) }));
    if (!out.CiphertextBlob) throw new Error("KMS returned no ciphertext");
    return `kms1.${Buffer.from(out.CiphertextBlob).toString("base64url")}`;
  }
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", localKey(), iv);
  cipher.setAAD(aad(ctx));
  const ct = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["aes1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ct.toString("base64url")].join(".");
}

/** Opens a value sealed for `ctx` ("" stays ""). Throws when altered, sealed for another context or key. */
export async function openSecret(sealed: string, ctx: SealContext): Promise<string> {
  if (!sealed) return "";
  const [kind, ...parts] = sealed.split(".");
  if (kind === "kms1" && parts.length === 1) {
    const out = await kmsClient().send(new DecryptCommand({ CiphertextBlob: Buffer.from(parts[0], "base64url"), EncryptionContext: kmsContext(ctx) }));
    if (!out.Plaintext) throw new Error("KMS returned no plaintext");
    return Buffer.from(out.Plaintext).toString("utf8");
  }
  if (kind === "aes1" && parts.length === 3) {
    const [iv, tag, ct] = parts;
    const decipher = createDecipheriv("aes-256-gcm", localKey(), Buffer.from(iv, "base64url"));
    decipher.setAAD(aad(ctx));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
  }
  throw new Error("unreadable sealed secret");
}
