/**
 * The platform's connected sessions for the super users' card (docs/product/dashboard.md#platform-cards): a durable
 * listener that puts each connection in or out of the platform's session set when its session state changes or it is
 * deleted. Idempotent (a set add or remove); re-driven, it reads the connection's current state.
 */
import type { Listener } from "../events/registry.ts";
import type {} from "../whatsapp/events.ts"; // the connection events handled here (types only)
import { getWhatsappItem } from "../whatsapp/repository.ts";
import { setSessionConnected } from "./repository.ts";

export const platformSessionsListener: Listener = {
  name: "platformSessions",
  durable: true,
  wants: (e) => e.type === "whatsapp.session" || e.type === "whatsapp.deleted" || (e.type === "whatsapp.updated" && !!e.previous && e.previous.status !== e.whatsapp.status),
  async handle(event, run) {
    if (event.type === "whatsapp.deleted") return setSessionConnected(event.companyId, event.whatsappId, false);
    if (event.type !== "whatsapp.session" && event.type !== "whatsapp.updated") return;
    const wa = run?.redriven ? await getWhatsappItem(event.companyId, event.whatsapp.id) : event.whatsapp;
    await setSessionConnected(event.companyId, event.whatsapp.id, wa?.status === "CONNECTED");
  },
};
