/**
 * Pix BR Codes of invoices (docs/product/invoices.md#pix): the EMV "copia e cola" payload, built and read back with
 * the `pix-utils` library, and the charge's transaction id (txid).
 */
import { randomBytes } from "node:crypto";
import { createStaticPix, hasError, parsePix, PixElementType } from "pix-utils";
import { getConfig } from "../config.ts";

/**
 * A txid names its invoice: `ATD` + company id (8 digits) + invoice id (8 digits) + random letters and digits up to
 * `length` characters (25 at most in a static BR Code; 26 to 35 for a Pix API charge).
 */
const TXID = /^ATD(\d{8})(\d{8})[A-Za-z0-9]{6,16}$/;
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A new, unique txid of invoice `invoiceId` of company `companyId`, `length` (25 to 35) characters of `[A-Za-z0-9]`. */
export function newTxid(companyId: number, invoiceId: number, length = 25): string {
  const tail = [...randomBytes(length - 19)].map((b) => ALNUM[b % ALNUM.length]).join("");
  return `ATD${String(companyId).padStart(8, "0")}${String(invoiceId).padStart(8, "0")}${tail}`;
}

/** The invoice a txid names, or null for a txid this platform did not make. */
export function invoiceOfTxid(txid: string): { companyId: number; invoiceId: number } | null {
  const m = TXID.exec(txid);
  return m ? { companyId: Number(m[1]), invoiceId: Number(m[2]) } : null;
}

/** Cents as the Pix API writes a value: `9990` → `"99.90"`. */
export const pixValue = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

/**
 * The BR Code ("copia e cola") that pays `valueCents` into the platform's Pix key (`PIX_KEY`) under `txid`.
 * @throws Error when the library refuses the key or the merchant fields (a configuration error).
 */
export function buildBrCode(txid: string, valueCents: number): string {
  const c = getConfig();
  const pix = createStaticPix({
    merchantName: c.PIX_MERCHANT_NAME.slice(0, 25),
    merchantCity: c.PIX_MERCHANT_CITY.slice(0, 15),
    pixKey: c.PIX_KEY,
    txid,
    transactionAmount: valueCents / 100,
  });
  if (hasError(pix)) throw new Error(`Pix BR Code refused: ${JSON.stringify(pix)}`);
  return pix.toBRCode();
}

/**
 * Reads a static BR Code back (its CRC checked by the library): key, value in cents and txid; null when it is not a
 * valid static Pix code.
 */
export function readBrCode(code: string): { pixKey: string; valueCents: number; txid: string | undefined } | null {
  const parsed = parsePix(code.trim());
  if (hasError(parsed) || parsed.type !== PixElementType.STATIC) return null;
  return { pixKey: parsed.pixKey, valueCents: Math.round((parsed.transactionAmount ?? 0) * 100), txid: parsed.txid };
}
