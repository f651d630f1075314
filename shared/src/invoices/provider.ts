/**
 * The payment-provider port (docs/product/invoices.md#pix): what makes an invoice's Pix charge. Confirmations come
 * back through `POST /api/pix/webhook` (the Banco Central Pix API's webhook body, checked against the shared secret),
 * whoever the provider is.
 *
 * - `none` ({@link localPix}): the BR Code is built here for the platform's key; nothing confirms it by itself (the
 *   super user marks the invoice paid; on one machine the sandbox's "pay this Pix" calls the webhook).
 * - `efi` ({@link efiPix}): an immediate charge at Efí's Pix API (`PUT /v2/cob/{txid}`, OAuth client credentials over
 *   mutual TLS with the account's certificate); its `pixCopiaECola` is the BR Code, and Efí calls the webhook once paid.
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { getConfig } from "../config.ts";
import { buildBrCode, pixValue } from "./pix.ts";

/** One immediate charge to make. */
export interface ChargeRequest {
  txid: string;
  valueCents: number;
  /** Shown to the payer (`solicitacaoPagador`), e.g. "Fatura #12". */
  description: string;
}

export interface PixProvider {
  readonly name: "none" | "efi";
  /** The length of the txids it takes (a static BR Code holds 25 at most; the Pix API's charges 26 to 35). */
  readonly txidLength: number;
  /** Makes the charge; answers its BR Code. @throws Error when the provider refuses or cannot be reached. */
  createCharge(charge: ChargeRequest): Promise<{ brCode: string }>;
}

/** No provider: the BR Code for the platform's Pix key, built here. */
export const localPix: PixProvider = {
  name: "none",
  txidLength: 25,
  createCharge: async (c) => ({ brCode: buildBrCode(c.txid, c.valueCents) }),
};

/** Seconds an Efí charge stays payable. */
const EFI_CHARGE_SECONDS = 3600;

interface HttpAnswer {
  status: number;
  body: unknown;
}

/** One JSON request to Efí (mutual TLS when a certificate is configured). */
function efiRequest(method: string, url: URL, headers: Record<string, string>, body: unknown): Promise<HttpAnswer> {
  const c = getConfig();
  const payload = JSON.stringify(body);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const tls = url.protocol === "https:" && c.EFI_CERTIFICATE_BASE64 ? { pfx: Buffer.from(c.EFI_CERTIFICATE_BASE64, "base64"), passphrase: "" } : {};
  return new Promise((resolve, reject) => {
    const req = send(url, { method, headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(payload) }, timeout: 10_000, ...tls }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (d: Buffer) => chunks.push(d));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          // not JSON: kept as text for the error
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on("timeout", () => req.destroy(new Error("Efí request timed out")));
    req.on("error", reject);
    req.end(payload);
  });
}

/** Efí's Pix API: OAuth token, then the immediate charge `PUT /v2/cob/{txid}`. */
export const efiPix: PixProvider = {
  name: "efi",
  txidLength: 32,
  async createCharge(ch) {
    const c = getConfig();
    if (!c.EFI_CLIENT_ID || !c.EFI_CLIENT_SECRET) throw new Error("Efí Pix: EFI_CLIENT_ID and EFI_CLIENT_SECRET are required");
    const base = c.EFI_API_URL.replace(/\/$/, "");
    const basic = Buffer.from(`${c.EFI_CLIENT_ID}:${c.EFI_CLIENT_SECRET}`).toString("base64");
    const token = await efiRequest("POST", new URL(`${base}/oauth/token`), { authorization: `Basic ${basic}` }, { grant_type: "client_credentials" });
    const accessToken = (token.body as { access_token?: unknown })?.access_token;
    if (token.status !== 200 || typeof accessToken !== "string") throw new Error(`Efí Pix: token refused (${token.status})`);
    const cob = await efiRequest(
      "PUT",
      new URL(`${base}/v2/cob/${encodeURIComponent(ch.txid)}`),
      { authorization: `Bearer ${accessToken}` },
      { calendario: { expiracao: EFI_CHARGE_SECONDS }, valor: { original: pixValue(ch.valueCents) }, chave: c.PIX_KEY, solicitacaoPagador: ch.description.slice(0, 140) },
    );
    const brCode = (cob.body as { pixCopiaECola?: unknown })?.pixCopiaECola;
    if (cob.status < 200 || cob.status >= 300 || typeof brCode !== "string") throw new Error(`Efí Pix: charge refused (${cob.status})`);
    return { brCode };
  },
};

/** The configured provider (`PIX_PROVIDER`). */
export function pixProvider(): PixProvider {
  return getConfig().PIX_PROVIDER === "efi" ? efiPix : localPix;
}
