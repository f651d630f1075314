/**
 * `dispatch(event)`: the only way a service tells the rest of the system that something happened. Checks the event
 * has a registered schema (and, under tests or with `ATENDE_CHECK_EVENTS=1`, that it parses with it), then hands it to
 * every listener in registration order (`./wiring.ts`), each isolated: one listener failing is logged and never stops
 * the others nor fails the caller (the domain write is already committed). Deferred listeners (counters) run without
 * holding up the caller; their effect is kept by the outbox item of the fact's own transaction (`./outbox.ts`).
 * Durable listeners (timers, summaries) keep a pending run until they succeeded (`./durable.ts`). Only realtime
 * frames and cache drops are best-effort (the web refetches on reconnect).
 */
import { log } from "../log.ts";
import { eventSchema, getDurableRunner, registeredListeners, type DomainEvent, type Listener, type RunKey } from "./registry.ts";

/**
 * Events are built by our own typed code, never read from outside (each outside input is parsed at its edge), so the
 * full zod parse of an event (a message with its whole ticket) is a development check: on under vitest or with
 * `ATENDE_CHECK_EVENTS=1`, off on the ingest's hot path in the cloud and the local stack (it would cost the ingest rate).
 */
const CHECK_EVENTS = !!process.env.VITEST || process.env.ATENDE_CHECK_EVENTS === "1";

/** True when events (and the realtime frames they produce) are parsed with their schemas: under tests or `ATENDE_CHECK_EVENTS=1`. */
export const checksSchemas = (): boolean => CHECK_EVENTS;

/**
 * Resolves when every listener has settled. Never throws; an unknown event (or, when checked, a malformed one) is
 * logged and dropped.
 */
export async function dispatch(event: DomainEvent): Promise<void> {
  const e = event as unknown as { type: string; companyId: number };
  const schema = eventSchema(e.type);
  if (!schema) {
    log("error", "events: unknown event type", { type: e.type, companyId: e.companyId });
    return;
  }
  const parsed = CHECK_EVENTS ? schema.safeParse(event) : null;
  if (parsed && !parsed.success) {
    log("error", "events: malformed event", { type: e.type, companyId: e.companyId, issues: parsed.error.issues.slice(0, 5) });
    return;
  }
  // The listeners get the event as given (schemas may apply defaults; the caller's objects are already complete).
  const durable = getDurableRunner();
  const run = async (l: Listener, applied?: RunKey[]) => {
    try {
      // A durable listener's run is kept until it succeeded (`./durable.ts`); the runner never throws.
      if (l.durable && durable) await durable.run(l, event, applied);
      else if (!l.wants || l.wants(event)) await l.handle(event);
    } catch (err) {
      log("warn", "events: listener failed", { listener: l.name, type: e.type, companyId: e.companyId, err });
    }
  };
  const listeners = registeredListeners();
  for (const l of listeners.filter((x) => x.deferred)) {
    const p = run(l);
    pending.add(p);
    void p.finally(() => pending.delete(p));
  }
  // The others in registration order (realtime before sockets: a revoked tab still gets the frame telling it why); the
  // pending runs of the durable ones that succeeded are deleted together at the end (one write, never throws).
  const applied: RunKey[] = [];
  for (const l of listeners.filter((x) => !x.deferred)) await run(l, applied);
  if (applied.length && durable) await durable.deleteApplied(applied);
}

const pending = new Set<Promise<void>>();

/**
 * Runs `work` without holding up the caller, like a deferred listener: {@link settleDeferred} waits for it too. Its
 * failure is logged, never thrown. For derived data a later read repairs anyway (e.g. `tickets/row.ts`).
 */
export function deferWork(work: Promise<void>): void {
  const p = work.catch((err) => log("warn", "events: deferred work failed", { err }));
  pending.add(p);
  void p.finally(() => pending.delete(p));
}

/**
 * Resolves when the deferred listeners' work started so far has settled (tests; a Lambda handler may await it before
 * returning). Work a frozen or killed process never finishes is re-driven by the minute tick (the outbox).
 */
export async function settleDeferred(): Promise<void> {
  while (pending.size) await Promise.all([...pending]);
}
