/** The new-ticket dialog's words for a contact whose ticket is already open or waiting. */
import { describe, expect, it } from "vitest";
import i18n from "../../i18n/index.ts";
import "./i18n.ts";
import { otherTicketText } from "./NewTicketDialog.tsx";

const ana = { id: 2, name: "Ana" };
const suporte = { id: 3, name: "Suporte", color: "#123456" };

describe("the existing ticket's holder", () => {
  it("names the agent and the queue, and says in words when there is no agent or no queue (never a dash)", () => {
    const t = i18n.getFixedT("pt");
    expect(otherTicketText(t, { user: ana, queue: suporte })).toBe("Já existe um atendimento aberto para este contato com Ana na fila Suporte.");
    expect(otherTicketText(t, { user: null, queue: suporte })).toBe("Já existe um atendimento deste contato aguardando na fila Suporte, ainda sem atendente.");
    expect(otherTicketText(t, { user: ana, queue: null })).toBe("Já existe um atendimento aberto para este contato com Ana, sem fila.");
    expect(otherTicketText(t, { user: null, queue: null })).toBe("Já existe um atendimento deste contato aguardando, ainda sem fila nem atendente.");
    expect(otherTicketText(i18n.getFixedT("en"), { user: null, queue: suporte })).toBe("This contact already has a ticket waiting in queue Suporte, with no agent yet.");
  });
});
