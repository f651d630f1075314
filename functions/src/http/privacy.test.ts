/**
 * A contact's personal data through the HTTP handlers: only admins export or erase it (another company's contact is
 * 404), each is audited, the export's zip holds the contact, its tickets, messages, notes and files, and after the
 * erasure nothing of the contact is readable through any read route (contacts, tickets, messages, search, media,
 * reports).
 */
import { describe, expect, it } from "vitest";
import { unzipSync, strFromU8 } from "fflate";
import { scanPages } from "@atende/shared/db/query";
import { getMessageById } from "@atende/shared/messages/repository";
import { getMedia } from "@atende/shared/storage/media";
import { listAuditEntries } from "@atende/shared/privacy/repository";
import { api, multipartBody } from "../../../test/helpers.ts";
import { companyWorld, runQueuedJobs, useLocalAws } from "../../../test/world.ts";

useLocalAws({ sqs: true });
const w = companyWorld({ ticket: true, contact: { name: "Joana Privada", number: "5511933332222" }, agents: [{ profile: "supervisor" }, {}], other: true });

/** The contact's ticket with a text, a file and a note from the admin; returns the file message's id. */
async function history(c: { admin: { token: string }; ticket: { id: number } }): Promise<string> {
  const text = await api("POST", `/api/messages/${c.ticket.id}`, { token: c.admin.token, body: { body: "Pedido confidencial 7788", signMessage: false } });
  expect(text.status).toBe(200);
  const file = await api("POST", `/api/messages/${c.ticket.id}`, { token: c.admin.token, ...multipartBody([{ name: "rg.pdf", type: "application/pdf", data: Buffer.from("%PDF documento") }]) });
  expect(file.status).toBe(200);
  expect((await api("POST", "/api/ticket-notes", { token: c.admin.token, body: { ticketId: c.ticket.id, note: "Cliente pediu sigilo" } })).status).toBe(200);
  return file.body[0]?.id ?? file.body.id;
}

describe("contact personal data", () => {
  it("lets only admins start an export or an erasure; another company's contact is 404; nothing starts", async () => {
    const [supervisor, agent] = w.agents;
    for (const path of [`/api/contacts/${w.contact.id}/personal-data/export`, `/api/contacts/${w.contact.id}/personal-data/erase`]) {
      expect((await api("POST", path, { token: supervisor.token })).status).toBe(403);
      expect((await api("POST", path, { token: agent.token })).status).toBe(403);
      expect((await api("POST", path, { token: w.other.admin.token })).body).toEqual({ error: "ERR_NO_CONTACT_FOUND" });
    }
    expect((await api("POST", "/api/contacts/abc/personal-data/erase", { token: w.admin.token })).status).toBe(400);
    expect((await api("GET", `/api/contacts/${w.contact.id}/personal-data/export/6f1c1c1e-0000-4000-8000-000000000000`, { token: w.admin.token })).status).toBe(404);
    expect((await api("GET", `/api/contacts/${w.contact.id}/personal-data/export/6f1c1c1e-0000-4000-8000-000000000000`, { token: agent.token })).status).toBe(403);
    expect(await listAuditEntries(w.cid)).toEqual([]);
    expect((await api("GET", `/api/contacts/${w.contact.id}`, { token: w.admin.token })).status).toBe(200);
  });

  it("exports the contact, its tickets, messages, notes and files as a zip, audited, readable by the admin only", async () => {
    const c = await w.fresh();
    await history(c);
    const started = await api("POST", `/api/contacts/${c.contact.id}/personal-data/export`, { token: c.admin.token });
    expect(started).toMatchObject({ status: 202, body: { job: { kind: "exportContactData", status: "running" } } });
    await runQueuedJobs();
    expect((await api("GET", `/api/jobs/${started.body.jobId}`, { token: c.admin.token })).body).toMatchObject({ status: "done" });
    const link = await api("GET", `/api/contacts/${c.contact.id}/personal-data/export/${started.body.jobId}`, { token: c.admin.token });
    expect(link).toMatchObject({ status: 200, body: { fileName: `contato-${c.contact.id}.zip` } });
    expect((await api("GET", `/api/contacts/${c.contact.id}/personal-data/export/${started.body.jobId}`, { token: c.other.admin.token })).status).toBe(404);
    const zip = unzipSync(new Uint8Array(await (await fetch(link.body.url)).arrayBuffer()));
    const names = Object.keys(zip);
    expect(JSON.parse(strFromU8(zip["contato.json"]))).toMatchObject({ id: c.contact.id, number: "5511933332222", name: "Joana Privada" });
    const dir = `atendimentos/${c.ticket.id}`;
    expect(JSON.parse(strFromU8(zip[`${dir}/mensagens.json`])).map((m: { body: string }) => m.body)).toEqual(["Pedido confidencial 7788", "rg.pdf"]);
    expect(JSON.parse(strFromU8(zip[`${dir}/notas.json`]))).toEqual([expect.objectContaining({ note: "Cliente pediu sigilo" })]);
    const file = names.find((n) => n.startsWith(`${dir}/arquivos/`) && n.endsWith("rg.pdf"))!;
    expect(strFromU8(zip[file])).toBe("%PDF documento");
    expect(await listAuditEntries(c.cid)).toEqual([expect.objectContaining({ action: "contact.personalData.export", contactId: c.contact.id, userId: c.admin.id, jobId: started.body.jobId })]);
  });

  it("erases the contact with its tickets, messages, notes, files and WhatsApp aliases: no read route shows any of it", async () => {
    const c = await w.fresh();
    const fileId = await history(c);
    const stored = await api("GET", `/api/messages/${c.ticket.id}`, { token: c.admin.token });
    const fileMsg = await getMessageById(c.cid, fileId);
    expect(fileMsg?.mediaKey).toBeTruthy();
    expect(stored.body.messages).toHaveLength(2);
    // a finished attendance too: the reports list it with the contact's name and number until the erasure
    expect((await api("PUT", `/api/tickets/${c.ticket.id}`, { token: c.admin.token, body: { status: "closed", justClose: true } })).status).toBe(200);
    const attendances = async () => (await api("GET", `/api/ticket/reports?contactId=${c.contact.id}`, { token: c.admin.token })).body.tickets;
    expect(await attendances()).toEqual([expect.objectContaining({ ticketId: c.ticket.id, contact: { id: c.contact.id, name: "Joana Privada", number: "5511933332222" } })]);

    const started = await api("POST", `/api/contacts/${c.contact.id}/personal-data/erase`, { token: c.admin.token });
    expect(started).toMatchObject({ status: 202, body: { job: { kind: "eraseContactData" } } });
    await runQueuedJobs();
    expect((await api("GET", `/api/jobs/${started.body.jobId}`, { token: c.admin.token })).body).toMatchObject({ status: "done" });

    expect((await api("GET", `/api/contacts/${c.contact.id}`, { token: c.admin.token })).status).toBe(404);
    expect((await api("GET", "/api/contacts?searchParam=Joana", { token: c.admin.token })).body.contacts).toEqual([]);
    expect((await api("GET", "/api/contacts?searchParam=33332222", { token: c.admin.token })).body.contacts).toEqual([]);
    expect((await api("GET", "/api/contacts/list?searchParam=Joana", { token: c.admin.token })).body).toEqual([]);
    expect((await api("GET", `/api/tickets/${c.ticket.id}`, { token: c.admin.token })).status).toBe(404);
    expect((await api("GET", `/api/tickets/u/${c.ticket.uuid}`, { token: c.admin.token })).status).toBe(404);
    for (const status of ["open", "pending", "closed"]) {
      expect((await api("GET", `/api/tickets?status=${status}&showAll=true`, { token: c.admin.token })).body.tickets).toEqual([]);
    }
    expect((await api("GET", "/api/tickets?searchParam=confidencial&showAll=true", { token: c.admin.token })).body.tickets).toEqual([]);
    expect((await api("GET", `/api/messages/${c.ticket.id}`, { token: c.admin.token })).status).toBe(404);
    expect((await api("GET", `/api/ticket-notes/list?ticketId=${c.ticket.id}`, { token: c.admin.token })).status).toBe(404);
    expect((await api("GET", `/api/media/${fileId}`, { token: c.admin.token })).status).toBe(404);
    expect(await attendances()).toEqual([]);
    expect((await api("GET", "/api/ticket/reports?status=closed", { token: c.admin.token })).body.tickets).toEqual([]);
    await expect(getMedia(fileMsg!.mediaKey!)).rejects.toThrow();
    // Nothing stored for the company names the contact any more (its aliases included), the audit aside.
    const left: string[] = [];
    for await (const page of scanPages({ FilterExpression: "begins_with(PK, :p)", ExpressionAttributeValues: { ":p": `C#${c.cid}#` }, ConsistentRead: true })) {
      for (const item of page) if (!String(item.PK).endsWith("#AUDIT") && /33332222|Joana|confidencial|sigilo/.test(JSON.stringify(item))) left.push(`${item.PK} ${item.SK}`);
    }
    expect(left).toEqual([]);
    expect(await listAuditEntries(c.cid)).toEqual([expect.objectContaining({ action: "contact.personalData.erase", contactId: c.contact.id })]);
    expect(JSON.stringify(await listAuditEntries(c.cid))).not.toMatch(/Joana|33332222/);
  });
});
