/**
 * Calls the company does not take (docs/product/settings.md#calls: setting `call`, the Settings page's
 * "accept calls"): with `call` = `disabled` the session runner rejects a ringing call (Baileys' `rejectCall`, asked by
 * the ingest through `IngestContext.rejectCall`), the ingest stores the call's `call_log` message on the contact's
 * ticket as for every call, and this step answers that log with {@link CALL_REFUSED_MESSAGE}, once per call (the ingest
 * logs a call once, under its id). Groups and contacts with `disableBot` get no text.
 */
import { getSetting } from "../settings/service.ts";
import { getCompany } from "../companies/service.ts";
import { sendAutomatic } from "./automatic.ts";
import type { InboundContext, InboundStep } from "./inbound.ts";

/**
 * The automatic text after a refused call. The old system had no wording for it, so this is our own, in Portuguese
 * like the product's other system texts.
 */
export const CALL_REFUSED_MESSAGE =
  "*Mensagem automática:* não atendemos chamadas de voz ou vídeo por este WhatsApp. Por favor, envie sua mensagem por escrito que já vamos te responder.";

/** True when the company does not take calls (setting `call` = `disabled`, the default). */
export async function callsRefused(companyId: number): Promise<boolean> {
  return (await getSetting(companyId, "call")) === "disabled";
}

/** Answers a stored call log when calls are refused; takes every call log (the chatbot never reads them). */
export async function answerCallLog(ctx: InboundContext): Promise<boolean> {
  if (ctx.message.mediaType !== "call_log") return false;
  if (ctx.ticket.isGroup || ctx.contact.disableBot || !(await callsRefused(ctx.companyId))) return true;
  const timeZone = (await getCompany(ctx.companyId))?.timezone;
  await sendAutomatic(ctx.companyId, ctx.ticket, CALL_REFUSED_MESSAGE, { timeZone });
  return true;
}

/** The step `inbound.ts` registers (order 5: before ratings and the chatbot). */
export const callStep: InboundStep = { name: "calls", order: 5, handle: answerCallLog };
