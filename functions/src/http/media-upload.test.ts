/**
 * Outbound attachments: the browser asks `POST /api/media/uploads` for a presigned PUT (key chosen by the
 * server under the company's media prefix, type and size in the signature), uploads straight to S3 (s3rver here), then
 * sends by key with `POST /api/messages/{ticketId}` `{medias: [{key, fileName}]}`. Another company's key, another
 * ticket's key and a key never uploaded are refused and send nothing.
 */
import { randomBytes } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { api, makeCompany, makeUser, type TestUser } from "../../../test/helpers.ts";
import { drainCommands, useLocalAws } from "../../../test/world.ts";
import { getMedia, MEDIA_SIZE_LIMITS } from "../../../shared/src/storage/media.ts";
import { makeQueue, makeTicket, makeWhatsapp } from "../../../shared/src/tickets/fixtures.testkit.ts";

useLocalAws({ sqs: true, bucket: "atende-media-upload-test" });
let cid: number;
let agent: TestUser;
let q1: number;
let wa: number;
let other: { companyId: number; admin: TestUser; wa: number };

/** Asks for an upload URL and PUTs `data` to it as the browser does; the answer of the upload route. */
async function upload(token: string, ticketId: number, fileName: string, contentType: string, data: Buffer) {
  const res = await api("POST", "/api/media/uploads", { token, body: { ticketId, fileName, contentType, size: data.length } });
  expect(res.status).toBe(200);
  const put = await fetch(res.body.url, { method: "PUT", headers: res.body.headers, body: new Uint8Array(data) });
  expect(put.status).toBe(200);
  return res.body as { key: string; url: string; headers: Record<string, string> };
}

beforeAll(async () => {
  const c = await makeCompany();
  cid = c.companyId;
  q1 = (await makeQueue(cid)).id;
  wa = (await makeWhatsapp(cid)).id;
  agent = await makeUser(cid, { queueIds: [q1], name: "Ana" });
  const o = await makeCompany();
  other = { ...o, wa: (await makeWhatsapp(o.companyId)).id };
});


beforeEach(async () => {
  await drainCommands(wa);
  await drainCommands(other.wa);
});

describe("presigned uploads of outbound attachments", () => {
  it("uploads straight to S3 under the company's media prefix and sends the file by key", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const data = randomBytes(200_000);
    const up = await upload(agent.token, ticket.id, "proposta.pdf", "application/pdf", data);
    expect(up.key).toMatch(new RegExp(`^media/${cid}/uploads/${ticket.id}/[0-9a-f-]{36}\\.pdf$`));
    // Type and length are signed: S3 refuses a PUT of another type or size.
    const signed = new URL(up.url).searchParams.get("X-Amz-SignedHeaders")?.split(";");
    expect(signed).toEqual(expect.arrayContaining(["content-length", "content-type", "host"]));

    const res = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "segue a proposta", medias: [{ key: up.key, fileName: "proposta.pdf" }] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      expect.objectContaining({ body: "segue a proposta", mediaKey: up.key, mediaName: "proposta.pdf", mediaMime: "application/pdf", mediaSize: data.length, mediaType: "application", ack: 0 }),
    ]);
    expect(res.body[0].mediaUrl).toContain(encodeURIComponent(up.key).replace(/%2F/g, "/"));
    expect((await getMedia(up.key)).equals(data)).toBe(true);
    expect(await drainCommands(wa)).toEqual([expect.objectContaining({ type: "send", companyId: cid, ticketId: ticket.id, messageId: res.body[0].id })]);
  });

  it("refuses to sign an upload over the type's limit", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const res = await api("POST", "/api/media/uploads", { token: agent.token, body: { ticketId: ticket.id, fileName: "foto.jpg", contentType: "image/jpeg", size: MEDIA_SIZE_LIMITS.image + 1 } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "ERR_VALIDATION", fields: [expect.objectContaining({ path: "size" })] });
    expect(res.body.url).toBeUndefined();
  });

  it("refuses another company's key, another ticket's key and a key never uploaded, and sends nothing", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const sibling = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const theirs = await makeTicket(other.companyId, { whatsappId: other.wa, status: "open", userId: other.admin.id });
    const foreign = await upload(other.admin.token, theirs.id, "segredo.pdf", "application/pdf", Buffer.from("dados da outra empresa"));
    const siblingKey = await upload(agent.token, sibling.id, "outro.pdf", "application/pdf", Buffer.from("outro ticket"));
    const never = `media/${cid}/uploads/${ticket.id}/00000000-0000-4000-8000-000000000000.pdf`;
    for (const key of [foreign.key, siblingKey.key, never, `media/${cid}/uploads/${ticket.id}/../../${other.companyId}/x`]) {
      const res = await api("POST", `/api/messages/${ticket.id}`, { token: agent.token, body: { body: "", medias: [{ key, fileName: "x.pdf" }] } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "ERR_NOT_FOUND" });
    }
    // Nor may another company ask for an upload on this company's ticket.
    const cross = await api("POST", "/api/media/uploads", { token: other.admin.token, body: { ticketId: ticket.id, fileName: "a.pdf", contentType: "application/pdf", size: 10 } });
    expect([403, 404]).toContain(cross.status);
    expect(await drainCommands(wa)).toEqual([]);
    const list = await api("GET", `/api/messages/${ticket.id}`, { token: agent.token });
    expect(list.body.messages).toEqual([]);
  });

  it("answers 400 for a malformed body and never signs", async () => {
    const ticket = await makeTicket(cid, { whatsappId: wa, queueId: q1, status: "open", userId: agent.id });
    const bad = await api("POST", "/api/media/uploads", { token: agent.token, body: { ticketId: ticket.id, fileName: "", contentType: "not a type", size: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("ERR_VALIDATION");
  });
});
