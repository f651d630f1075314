/**
 * The realtime listener: turns a domain event into the spec's frames `{"event":"company-{id}-{name}","data":...}`
 * (names and shapes unchanged; the mappers come from each feature's `events.ts` through `./frames.ts`) and sends them
 * to the sockets the audience allows. The company's sockets are listed ONCE per event; each socket is checked with the
 * one access rule (`access/tickets.ts` `canSee`, `access/permissions.ts` `can`). Best-effort: the web refetches on
 * reconnect.
 */
import { sendFrames, sendPlatformFrames, type OutboundFrame } from "../realtime/publish.ts";
import { framesOf } from "./frames.ts";
import type { Listener } from "./registry.ts";

export { framesOf, realtimeFrames, type Frame } from "./frames.ts";

/** The listener: maps the event, then sends every frame over one listing of the company's sockets. */
export const realtimeListener: Listener = {
  name: "realtime",
  async handle(event) {
    const frames = await framesOf(event);
    if (!frames.length) return;
    const outbound = (f: (typeof frames)[number]): OutboundFrame => ({ name: f.name, data: f.data, audience: f.audience ?? { kind: "company" }, room: f.room });
    const company = frames.filter((f) => !f.platform).map(outbound);
    const platform = frames.filter((f) => f.platform).map(outbound);
    if (company.length) await sendFrames((event as { companyId: number }).companyId, company);
    if (platform.length) await sendPlatformFrames(platform);
  },
};
