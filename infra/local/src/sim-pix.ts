/**
 * The sandbox's "pay this Pix" (`POST /sim/pix/pay`, one machine only): `{code}` is an invoice's BR Code ("copia e
 * cola"); it is read back (CRC checked) and its charge confirmed through the very webhook the Pix provider calls in
 * the cloud, `POST /api/pix/webhook?hmac=<PIX_WEBHOOK_SECRET>`, with the Banco Central Pix API's body. Answers the
 * webhook's answer (`{applied}`), or 400 `ERR_PIX_CODE` for a code that is not a valid static Pix code with a txid.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { getConfig } from "@atende/shared/config";
import { pixValue, readBrCode } from "@atende/shared/invoices/pix";
import { SandboxPixPayBody } from "@atende/shared/invoices/schema";

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 16_384) return undefined;
    chunks.push(c as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}

/** Handles `POST /sim/pix/pay` on the local stack at `baseUrl`. */
export async function handleSimPixPay(req: IncomingMessage, res: ServerResponse, baseUrl: string): Promise<void> {
  const send = (status: number, body: unknown): void => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };
  const body = SandboxPixPayBody.safeParse(await readJson(req));
  const read = body.success ? readBrCode(body.data.code) : null;
  if (!read?.txid) return send(400, { error: "ERR_PIX_CODE" });
  const secret = getConfig().PIX_WEBHOOK_SECRET ?? "";
  const answer = await fetch(`${baseUrl}/api/pix/webhook?hmac=${encodeURIComponent(secret)}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ pix: [{ txid: read.txid, valor: pixValue(read.valueCents), endToEndId: `E${randomBytes(15).toString("hex")}`, horario: new Date().toISOString() }] }),
  });
  send(answer.status, await answer.json().catch(() => ({})));
}
