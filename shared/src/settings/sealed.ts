/**
 * The sealing port of integration credentials at rest (docs/product/settings.md#integration-credentials): the IXC,
 * MK-AUTH and ASAAS settings are stored only sealed and never answered in clear.
 *
 * - Cloud (`SETTINGS_KMS_KEY_ID` set): AWS KMS `Encrypt` / `Decrypt` with that key, the encryption context naming the
 *   company and the setting (a value copied to another company or key does not open): `kms:<base64 ciphertext>`.
 * - One machine: AES-256-GCM with a key derived from the local `JWT_SECRET`: `aes:v1.<iv>.<tag>.<ciphertext>`.
 */
import { createHash } from "node:crypto";
import { DecryptCommand, EncryptCommand, KMSClient } from "@aws-sdk/client-kms";
import { getConfig } from "../config.ts";
import { aesGcmOpen, aesGcmSeal } from "../crypto/aes.ts";
import { sdkLogger } from "../log.ts";

/** Where a sealed value belongs: it opens only there. */
export interface SealContext {
  companyId: number;
  key: string;
}

let kms: KMSClient | undefined;
const kmsClient = () => (kms ??= new KMSClient({ logger: sdkLogger }));
const contextOf = (c: SealContext) => ({ purpose: "atende-setting", companyId: String(c.companyId), key: c.key });

function localKey(): Buffer {
  const cfg = getConfig();
  if (cfg.STAGE !== "local" || !cfg.JWT_SECRET) throw new Error("SETTINGS_KMS_KEY_ID must be set outside the local stage");
  return createHash("sha256").update(`atende-settings-key|${cfg.JWT_SECRET}`, "utf8").digest();
}

/** Seals a credential ("" stays "": nothing stored). @throws Error when KMS refuses. */
export async function sealSetting(value: string, at: SealContext): Promise<string> {
  if (!value) return "";
  const keyId = getConfig().SETTINGS_KMS_KEY_ID;
  if (keyId) {
    const out = await kmsClient().send(new EncryptCommand({ KeyId: keyId, Plaintext: Buffer.from(value, "utf8"), EncryptionContext: contextOf(at) }));
    return `kms:${Buffer.from(out.CiphertextBlob!).toString("base64")}`;
  }
  return `aes:${aesGcmSeal(localKey(), `${at.companyId}|${at.key}|${value}`)}`;
}

/** Opens a sealed credential ("" stays ""). @throws Error when it was sealed elsewhere or altered. */
export async function openSetting(sealed: string, at: SealContext): Promise<string> {
  if (!sealed) return "";
  if (sealed.startsWith("kms:")) {
    const out = await kmsClient().send(new DecryptCommand({ CiphertextBlob: Buffer.from(sealed.slice(4), "base64"), EncryptionContext: contextOf(at) }));
    return Buffer.from(out.Plaintext!).toString("utf8");
  }
  if (!sealed.startsWith("aes:")) throw new Error("unreadable sealed setting");
  const [companyId, key, ...rest] = aesGcmOpen(localKey(), sealed.slice(4)).split("|");
  if (companyId !== String(at.companyId) || key !== at.key) throw new Error("sealed setting of another company or key");
  return rest.join("|");
}
