/**
 * The domain event registry: event type → zod schema, and the listeners. A leaf (it imports nothing of ours), so
 * declaring events and dispatching them loads no listener: the listeners are added by the composition root
 * (`./wiring.ts`), which only entry points import.
 *
 * A feature adds its events from its own folder (`<feature>/events.ts`, e.g. `shared/src/tags/events.ts`):
 * ```ts
 * declare module "../events/registry.ts" {
 *   interface EventMap { "tag.created": { type: "tag.created"; companyId: number; tag: TagItem } }
 * }
 * defineEvents({ "tag.created": baseEvent("tag.created").extend({ tag: TagItem }) });
 * realtimeFrames("tag.created", (e) => [{ name: "tag", data: { action: "create", tag: e.tag } }]);
 * ```
 * and every module that dispatches those events imports `./events.ts` (registration happens before its first dispatch).
 */
import { z } from "zod";

/**
 * Every domain event by type. Each feature augments this interface (`declare module`) from its own `events.ts`.
 * Every event has `type` and `companyId` (the tenant it belongs to).
 */
// biome-ignore lint/suspicious/noEmptyInterface: an interface, so features extend it by declaration merging
export interface EventMap {}

export type EventType = keyof EventMap & string;
export type DomainEvent = EventMap[EventType];
export type EventOf<T extends EventType> = EventMap[T];

/** What every event carries. */
export interface EventBase {
  type: string;
  companyId: number;
}

/** The schema every event starts from: `{type, companyId}`; a feature `.extend`s it with its payload. */
export function baseEvent<T extends string>(type: T) {
  return z.object({ type: z.literal(type), companyId: z.number().int() });
}

const schemas = new Map<string, z.ZodType>();

/** Registers the zod schemas of some events (a feature's own). Registering a type twice throws (one owner per event). */
export function defineEvents(defs: Record<string, z.ZodType>): void {
  for (const [type, schema] of Object.entries(defs)) {
    if (schemas.has(type) && schemas.get(type) !== schema) throw new Error(`event ${type} defined twice`);
    schemas.set(type, schema);
  }
}

/** The schema of an event type, or undefined when nobody defined it. */
export function eventSchema(type: string): z.ZodType | undefined {
  return schemas.get(type);
}

/** Every defined event type (for docs and tests). */
export function definedEventTypes(): string[] {
  return [...schemas.keys()].sort();
}

/**
 * A listener: receives every dispatched event (it picks the ones it handles). Throwing is allowed; `dispatch` logs it
 * and runs the other listeners. Listeners whose effect must not be lost keep it in the outbox (`./outbox.ts`).
 */
export interface Listener {
  name: string;
  /**
   * `redriven`: this is the minute tick running a durable listener's failed run again, maybe after newer events of the
   * same entity: the listener then acts on the entity's current state, not on the event's copy.
   */
  handle(event: DomainEvent, run?: { redriven?: boolean }): Promise<void>;
  /**
   * Deferred listeners do not hold up the caller: `dispatch` resolves without waiting for them (see `settleDeferred`).
   * Only for listeners whose work is kept durable elsewhere (the counters' outbox).
   */
  deferred?: boolean;
  /**
   * Carries a rule (timers, summaries, webhooks...): each run is kept as a pending-run item until it succeeded, and
   * the minute tick runs it again after a failure or a dead process (`./durable.ts`). Its `handle` must throw when
   * its write failed, and be idempotent.
   */
  durable?: boolean;
  /** The events it acts on: a durable listener keeps a pending run only for these (no write for the others). */
  wants?(event: DomainEvent): boolean;
}

/** The key of a durable listener's pending run. */
export type RunKey = { PK: string; SK: string };

/**
 * How durable listeners are run: `run` runs listener `l` on `event`; with `applied`, the key of its run, once applied,
 * is added there instead of deleted, and `deleteApplied` deletes those of one event together (one write).
 */
interface DurableRunner {
  run(l: Listener, event: DomainEvent, applied?: RunKey[]): Promise<void>;
  deleteApplied(applied: RunKey[]): Promise<void>;
}
let durableRunner: DurableRunner | null = null;

/** Installs how durable listeners are run (`./durable.ts`, by `./wiring.ts`; none: they run like others). */
export function setDurableRunner(run: DurableRunner | null): void {
  durableRunner = run;
}

/** The installed durable runner, if any. */
export function getDurableRunner(): DurableRunner | null {
  return durableRunner;
}

const listeners: Listener[] = [];

/** Adds a listener (the ONE list is assembled in `./wiring.ts`). A name registered again replaces the earlier one. */
export function addListener(l: Listener): void {
  const i = listeners.findIndex((x) => x.name === l.name);
  if (i >= 0) listeners[i] = l;
  else listeners.push(l);
}

/** The registered listeners, in registration order. */
export function registeredListeners(): readonly Listener[] {
  return listeners;
}
