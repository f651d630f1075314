/**
 * The realtime frames of each event type: which frames an event produces (`realtimeFrames`, one mapper per type,
 * declared in the feature's `events.ts` beside its schemas). A leaf: the mappers are registered here and read by the
 * realtime listener (`./realtime.ts`, wired in `./wiring.ts`), so declaring frames loads no sending code.
 */
import type { Audience } from "../realtime/publish.ts";
import type { DomainEvent, EventOf, EventType } from "./registry.ts";

/** One frame an event produces: `name` is the part after `company-{id}-`; `audience` defaults to the whole company. */
export interface Frame {
  name: string;
  data: unknown;
  audience?: Audience;
  /** Only sockets that joined this room (`realtime/rooms.ts`). */
  room?: string;
  /**
   * A platform frame: to the sockets of EVERY company (each addressed `company-{its id}-{name}`), through the platform
   * channel (`realtime/publish.ts` `sendPlatformFrames`); `audience` still filters each socket.
   */
  platform?: boolean;
}

type Mapper = (event: DomainEvent) => Frame[] | Promise<Frame[]>;
const mappers = new Map<string, Mapper>();

/**
 * Declares the frames an event type produces (frames are sent in the order returned). One mapper per type: a second
 * one for the same type throws (two features claiming one event is a bug, not an override).
 */
export function realtimeFrames<T extends EventType>(type: T, map: (event: EventOf<T>) => Frame[] | Promise<Frame[]>): void {
  if (mappers.has(type)) throw new Error(`realtime frames of ${type} declared twice`);
  mappers.set(type, map as Mapper);
}

/** The frames of one event (empty when the type has no realtime mapping). */
export async function framesOf(event: DomainEvent): Promise<Frame[]> {
  const m = mappers.get((event as { type: string }).type);
  return m ? m(event) : [];
}
