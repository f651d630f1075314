/**
 * Domain events, the ONE place (issue 7 §1): the core event catalog and the listeners — the ingest's read cache
 * (`ingest/read-cache.ts`: drops what an event changed), realtime, sockets (access
 * changes reach open sockets), auth cache (drops a changed user's cached context), ticket summaries (names, colours and statuses stored on ticket items,
 * `tickets/summaries.ts`), counters, the contacts' last interaction, webhooks, ticket timers (issue 9 §5: schedules due-index timers) — run in this order (counters deferred). Services import `dispatch` from here. See `./README.md`.
 */
import "./core.ts";
import { lastInteractionListener } from "../contacts/listener.ts";
import { countersListener } from "./counters.ts";
import { realtimeListener } from "./realtime.ts";
import { socketsListener } from "./sockets.ts";
import { addListener } from "./registry.ts";
import { webhooksListener } from "./webhooks.ts";
import { ticketSummariesListener } from "../tickets/summaries.ts";
import { authCacheListener } from "../auth/cache-listener.ts";
import { ticketTimersListener } from "../timers/ticket-listener.ts";
import { readCacheListener } from "../ingest/read-cache.ts";

addListener(authCacheListener);
addListener(readCacheListener);
addListener(realtimeListener);
addListener(socketsListener);
addListener(ticketSummariesListener);
addListener(countersListener);
addListener(lastInteractionListener);
addListener(webhooksListener);
addListener(ticketTimersListener);

export { dispatch, settleDeferred } from "./dispatch.ts";
export { defineEvents, type DomainEvent, type EventMap, type EventType } from "./registry.ts";
export { realtimeFrames } from "./realtime.ts";
export { redriveOutbox } from "./outbox.ts";
