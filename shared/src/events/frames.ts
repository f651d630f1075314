/**
 * The realtime frames of each event type: which frames an event produces (`realtimeFrames`, one mapper per type,
 * declared in the feature's `events.ts` beside its schemas) and the zod schema of each frame name's data
 * (`defineFrames`, registered beside the mapper; the schema itself lives beside the view it carries, in the feature's
 * `schema.ts` or `contract.ts`). A leaf: the mappers and schemas are registered here and read by the realtime listener
 * (`./realtime.ts`, wired in `./wiring.ts`), so declaring frames loads no sending code.
 *
 * A frame's data is typed by `FrameMap` (`./frame-map.ts`, frame name → the type of its schema): tsc checks every
 * mapper against it, the web's handlers receive it (type-only, from `./frame-map.ts`), and under tests the realtime
 * listener parses each frame with its schema (docs/architecture.md §4).
 */
import type { z } from "zod";
import type { Audience } from "../realtime/publish.ts";
import type { FrameMap, FrameName } from "./frame-map.ts";
import type { DomainEvent, EventOf, EventType } from "./registry.ts";

export type { FrameEvent, FrameMap, FrameName } from "./frame-map.ts";

/**
 * One frame an event produces: `name` is the part after `company-{id}-`, `data` the type its schema gives that name;
 * `audience` defaults to the whole company.
 */
export type Frame = {
  [N in FrameName]: {
    name: N;
    data: FrameMap[N];
    audience?: Audience;
    /** Only sockets that joined this room (`realtime/rooms.ts`). */
    room?: string;
    /**
     * A platform frame: to the sockets of EVERY company (each addressed `company-{its id}-{name}`), through the
     * platform channel (`realtime/publish.ts` `sendPlatformFrames`); `audience` still filters each socket.
     */
    platform?: boolean;
  };
}[FrameName];

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

const schemas = new Map<string, z.ZodType>();

/**
 * Registers the zod schemas of some frames' data, by frame name (a feature's own, from its `events.ts` or
 * `schema.ts`). Each schema's output type must be the name's `FrameMap` entry. A name registered twice with another
 * schema throws (one owner per frame).
 */
export function defineFrames(defs: { [N in FrameName]?: z.ZodType<FrameMap[N]> }): void {
  for (const [name, schema] of Object.entries(defs) as [string, z.ZodType][]) {
    if (schemas.has(name) && schemas.get(name) !== schema) throw new Error(`frame ${name} defined twice`);
    schemas.set(name, schema);
  }
}

/** Every frame name with a schema (for docs and tests). */
export function definedFrameNames(): string[] {
  return [...schemas.keys()].sort();
}

/**
 * What is wrong with a frame's data against the schema of its name: `[]` when it parses; one issue when no schema
 * was declared for the name. Each issue is `{path: "ticket.contact.id", message}` (zod's message).
 */
export function frameIssues(name: string, data: unknown): { path: string; message: string }[] {
  const schema = schemas.get(name);
  if (!schema) return [{ path: "", message: `no schema declared for frame ${name}` }];
  const r = schema.safeParse(data);
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
}
