/**
 * The runner wired to the real ports (ingest service, messages repository, connections service) with the simulated
 * network, fauxqs, s3rver and DynamoDB Local: what a person sees on one machine.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getMedia } from "@atende/shared/storage/media";
import { getWhatsappItem } from "@atende/shared/whatsapp/repository";
import { storedState } from "@atende/shared/ingest/testkit";
import { api } from "../../test/helpers.ts";
import { companyWorld } from "../../test/world.ts";
import { eventually } from "./testing/harness.ts";
import { useOneMachine } from "./testing/one-machine.ts";

const companies = companyWorld({ capture: false });

const { sim } = useOneMachine();

describe("one machine, end to end", () => {
  it("turns a contact's messages into a ticket, stores media in S3 and sends the agent's reply with ticks", async () => {
    const { cid: companyId, admin } = await companies.fresh();
    const created = await api("POST", "/api/whatsapp", { token: admin.token, body: { name: "Loja" } });
    expect(created.status).toBe(200);
    const whatsappId = created.body.id as number;
    await eventually(async () => (await getWhatsappItem(companyId, whatsappId))?.status === "qrcode");
    expect((await sim("POST", `/sim/whatsapp/${whatsappId}/scan`, {})).status).toBe(200);
    expect((await api("GET", `/api/whatsapp/${whatsappId}`, { token: admin.token })).body).toMatchObject({ status: "CONNECTED", number: expect.stringMatching(/^\d+$/) });

    const text = await sim("POST", `/sim/whatsapp/${whatsappId}/messages`, { from: "5511900000001", pushName: "Ana", text: "Olá" });
    expect(text.status).toBe(200);
    const photo = randomBytes(20000);
    const image = await sim("POST", `/sim/whatsapp/${whatsappId}/messages`, {
      from: "5511900000001",
      pushName: "Ana",
      image: photo.toString("base64"),
      mimetype: "image/png",
      caption: "meu comprovante",
    });
    expect(image.status).toBe(200);

    const state = await storedState(companyId);
    expect(state.tickets).toHaveLength(1);
    // Both arrive within the same second (WhatsApp timestamps are in seconds), so their order is not asserted.
    expect(state.messages.map((m) => [m.id, m.fromMe]).sort()).toEqual(
      [
        [text.body.id, false],
        [image.body.id, false],
      ].sort(),
    );
    const stored = state.messages.find((m) => m.id === image.body.id)!;
    expect(stored.mediaKey).toBeTruthy();
    expect((await getMedia(stored.mediaKey!)).equals(photo)).toBe(true);

    const ticketId = state.tickets[0].id;
    const reply = await api("POST", `/api/messages/${ticketId}`, { token: admin.token, body: { body: "Oi Ana, recebido!", signMessage: false } });
    expect(reply.status).toBe(200);
    const sent = await eventually(async () => (await sim("GET", `/sim/whatsapp/${whatsappId}/sent`)).body.find((s: any) => s.id === reply.body.id));
    expect(sent).toMatchObject({ jid: "5511900000001@s.whatsapp.net", content: { text: "Oi Ana, recebido!" } });
    await eventually(async () => (await storedState(companyId)).messages.find((m) => m.id === reply.body.id)?.ack === 4);
    expect((await storedState(companyId)).messages.filter((m) => m.id === reply.body.id)).toHaveLength(1);
  });

  it("media storm: a 1.5 GB document announcement is not downloaded, a 6 MiB image streams to S3 in parts, another connection keeps working", async () => {
    const { cid: companyId, admin } = await companies.fresh();
    const connect = async (name: string) => {
      const created = await api("POST", "/api/whatsapp", { token: admin.token, body: { name } });
      const id = created.body.id as number;
      await eventually(async () => (await getWhatsappItem(companyId, id))?.status === "qrcode");
      expect((await sim("POST", `/sim/whatsapp/${id}/scan`, {})).status).toBe(200);
      return id;
    };
    const stormed = await connect("Loja");
    const calm = await connect("Suporte");
    const photo = randomBytes(6 * 2 ** 20 + 123);
    const [huge, image, text] = await Promise.all([
      sim("POST", `/sim/whatsapp/${stormed}/messages`, { from: "5511900000011", document: Buffer.from("PK").toString("base64"), mimetype: "application/zip", fileName: "backup.zip", fileLength: 1_500_000_000 }),
      sim("POST", `/sim/whatsapp/${stormed}/messages`, { from: "5511900000012", image: photo.toString("base64"), mimetype: "image/jpeg" }),
      sim("POST", `/sim/whatsapp/${calm}/messages`, { from: "5511900000013", text: "ainda funciona?" }),
    ]);
    expect([huge.status, image.status, text.status]).toEqual([200, 200, 200]);
    const state = await storedState(companyId);
    const doc = state.messages.find((m) => m.id === huge.body.id)!;
    expect(doc).toMatchObject({ mediaKey: null, mediaError: true, mediaSize: 1_500_000_000, mediaName: "backup.zip" });
    expect(doc.body).toContain("Arquivo grande demais");
    const img = state.messages.find((m) => m.id === image.body.id)!;
    expect(img).toMatchObject({ mediaError: false, mediaSize: photo.length });
    expect((await getMedia(img.mediaKey!)).equals(photo)).toBe(true);
    expect(state.messages.find((m) => m.id === text.body.id)?.body).toBe("ainda funciona?");
  }, 120_000);
});
