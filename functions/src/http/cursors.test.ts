/**
 * Forged pagination cursors: a cursor is opaque to clients, but an attacker can decode and rewrite it. Every start key
 * a cursor carries is rebuilt from the attributes its query expects, so a key with a numeric `SK`, an extra attribute
 * or no `SK` is 400 `ERR_INVALID_CURSOR` (it once reached DynamoDB and answered 500).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, type TestUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { keys } from "@atende/shared/db/keys";
import { makeTicket } from "@atende/shared/tickets/fixtures.testkit";
import type { TicketItem } from "@atende/shared/tickets/schema";

const w = companyWorld({ contact: "Cliente Cursor", ticket: true });
let cid: number;
let admin: TestUser;
let ticket: TicketItem;
let earlier: TicketItem;
let tagId: number;

const encode = (v: unknown) => Buffer.from(JSON.stringify(v), "utf8").toString("base64url");

/** The ways a well-placed key is forged: a numeric sort key, an extra attribute, no sort key at all. */
function forgeries(key: Record<string, unknown>, sortAttrs: string[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [{ ...key, extra: "x" }];
  for (const attr of sortAttrs) {
    out.push({ ...key, [attr]: 5 });
    const { [attr]: _dropped, ...rest } = key;
    out.push(rest);
  }
  return out;
}

beforeAll(async () => {
  ({ cid, admin, ticket: earlier } = w);
  const { wa, contact } = w;
  expect((await api("PUT", `/api/tickets/${earlier.id}`, { token: admin.token, body: { status: "closed" } })).status).toBe(200);
  ticket = await makeTicket(cid, { whatsappId: wa, contact, status: "open", userId: admin.id });
  tagId = (await api("POST", "/api/tags", { token: admin.token, body: { name: "Cursor" } })).body.id;
  expect((await api("PUT", `/api/ticket-tags/${ticket.id}/${tagId}`, { token: admin.token })).status).toBe(200);
});

async function expectRefused(path: string, cursor: unknown) {
  const r = await api("GET", `${path}${path.includes("?") ? "&" : "?"}cursor=${encode(cursor)}`, { token: admin.token });
  expect({ status: r.status, body: r.body, cursor }).toEqual({ status: 400, body: { error: "ERR_INVALID_CURSOR" }, cursor });
}

describe("forged cursors answer 400 ERR_INVALID_CURSOR, never reach DynamoDB", () => {
  it("messages of a ticket", async () => {
    const key = { PK: keys.ticketPartition(cid, ticket.id), SK: `${keys.messagePrefix}2026-01-01T00:00:00.000Z#x` };
    for (const k of forgeries(key, ["SK"])) await expectRefused(`/api/messages/${ticket.id}`, k);
  });

  it("the earlier conversation's message cursor", async () => {
    const key = { PK: keys.ticketPartition(cid, earlier.id), SK: `${keys.messagePrefix}2026-01-01T00:00:00.000Z#x` };
    for (const k of [...forgeries(key, ["SK"]), 5]) {
      await expectRefused(`/api/messages/${ticket.id}/earlier`, { tk: earlier.id, sk: keys.ticketEdgeSK(earlier.createdAt, earlier.id), m: encode(k) });
    }
  });

  it("contacts by name", async () => {
    const key = { ...keys.contact(cid, 1), ...keys.contactNameIndex(cid, "cliente", 1) };
    for (const k of forgeries(key, ["SK", "GSI1SK"])) await expectRefused("/api/contacts", { n: k });
  });

  it("the tag filter of the tickets list", async () => {
    const key = { ...keys.ticket(cid, ticket.id), GSI4PK: keys.tagTicketsPK(cid, tagId), GSI4SK: keys.ticketEdgeSK(ticket.createdAt, ticket.id) };
    for (const k of forgeries(key, ["SK", "GSI4SK"])) await expectRefused(`/api/tickets?tags=${encodeURIComponent(JSON.stringify([tagId]))}`, { g: { [tagId]: k } });
  });

  it("the tickets list", async () => {
    const pk = keys.ticketUserPK(cid, "open", admin.id);
    const key = { ...keys.ticket(cid, ticket.id), GSI3PK: pk, GSI3SK: `${ticket.updatedAt}#x` };
    for (const k of forgeries(key, ["SK", "GSI3SK"])) await expectRefused("/api/tickets?status=open", { s: { [`GSI3|${pk}`]: k } });
  });
});
