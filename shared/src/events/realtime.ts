/**
 * The realtime listener (issue 7 §1; attendance.md §7 "Realtime socket"): turns a domain event into the spec's frames
 * `{"event":"company-{id}-{name}","data":...}` — names and shapes unchanged — and sends them to the sockets the
 * audience allows. The company's sockets are listed ONCE per event; each socket is checked with the one access rule
 * (`access/tickets.ts` `canSee`, `access/permissions.ts` `can`).
 *
 * A feature maps its own events with {@link realtimeFrames} from its own folder.
 */
import { sendFrames, type Audience, type OutboundFrame } from "../realtime/publish.ts";
import type { EventOf, EventType, DomainEvent, Listener } from "./registry.ts";

/** One frame an event produces: `name` is the part after `company-{id}-`; `audience` defaults to the whole company. */
export interface Frame {
  name: string;
  data: unknown;
  audience?: Audience;
  /** Only sockets that joined this room (`realtime/rooms.ts`). */
  room?: string;
}

type Mapper = (event: DomainEvent) => Frame[] | Promise<Frame[]>;
const mappers = new Map<string, Mapper>();

/** Declares the frames an event type produces (one mapper per type; frames are sent in the order returned). */
export function realtimeFrames<T extends EventType>(type: T, map: (event: EventOf<T>) => Frame[] | Promise<Frame[]>): void {
  mappers.set(type, map as Mapper);
}

/** The frames of one event (empty when the type has no realtime mapping). Exposed for tests. */
export async function framesOf(event: DomainEvent): Promise<Frame[]> {
  const m = mappers.get((event as { type: string }).type);
  return m ? m(event) : [];
}

/** The listener: maps the event, then sends every frame over one listing of the company's sockets. */
export const realtimeListener: Listener = {
  name: "realtime",
  async handle(event) {
    const frames = await framesOf(event);
    if (!frames.length) return;
    const out: OutboundFrame[] = frames.map((f) => ({ name: f.name, data: f.data, audience: f.audience ?? { kind: "company" }, room: f.room }));
    await sendFrames((event as { companyId: number }).companyId, out);
  },
};
