/**
 * The Efí adapter of the payment-provider port against a stand-in of Efí's Pix API: OAuth client credentials, then
 * the immediate charge `PUT /v2/cob/{txid}` with the invoice's value and the platform's key; its `pixCopiaECola` is
 * the code shown. A refused charge is an error (the checkout answers 502), never a code.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "../config.ts";
import { efiPix } from "./provider.ts";

const seen: { method?: string; url?: string; auth?: string; body: any }[] = [];
let server: Server;
let refuse = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString() || "{}") });
      res.setHeader("content-type", "application/json");
      if (req.url === "/oauth/token") return res.end(JSON.stringify({ access_token: "tok-1", token_type: "Bearer", expires_in: 3600 }));
      if (refuse) return res.writeHead(400).end(JSON.stringify({ nome: "valor_invalido" }));
      res.writeHead(201).end(JSON.stringify({ txid: req.url?.split("/").pop(), status: "ATIVA", pixCopiaECola: "00020101021226830014BR.GOV.BCB.PIX2561qrcodespix.sejaefi.com.br/v2/abc5204000053039865802BR5905EFISA6008SAOPAULO62070503***6304ABCD" }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  Object.assign(process.env, { EFI_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, EFI_CLIENT_ID: "Client_Id_1", EFI_CLIENT_SECRET: "Client_Secret_1", PIX_KEY: "chave@atende.app" });
  resetConfig();
});
afterAll(async () => {
  for (const k of ["EFI_API_URL", "EFI_CLIENT_ID", "EFI_CLIENT_SECRET", "PIX_KEY"]) delete process.env[k];
  resetConfig();
  await new Promise<void>((r) => server.close(() => r()));
});

describe("efiPix.createCharge", () => {
  it("gets a token with the client credentials, then creates the immediate charge and answers its copia e cola", async () => {
    const txid = "ATD0000000700000012abcdefghijklm";
    const out = await efiPix.createCharge({ txid, valueCents: 12990, description: "Fatura #12" });
    expect(out.brCode).toMatch(/^000201/);
    expect(seen[0]).toMatchObject({ method: "POST", url: "/oauth/token", auth: `Basic ${Buffer.from("Client_Id_1:Client_Secret_1").toString("base64")}`, body: { grant_type: "client_credentials" } });
    expect(seen[1]).toEqual({
      method: "PUT",
      url: `/v2/cob/${txid}`,
      auth: "Bearer tok-1",
      body: { calendario: { expiracao: 3600 }, valor: { original: "129.90" }, chave: "chave@atende.app", solicitacaoPagador: "Fatura #12" },
    });
  });

  it("throws when Efí refuses the charge", async () => {
    refuse = true;
    await expect(efiPix.createCharge({ txid: "ATD0000000700000013abcdefghijklm", valueCents: 100, description: "Fatura #13" })).rejects.toThrow(/charge refused \(400\)/);
    refuse = false;
  });
});
