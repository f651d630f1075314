/**
 * Domain events, the ONE place (issue 7 §1): the core event catalog and the listeners — realtime, sockets (access
 * changes reach open sockets), counters, the contacts' last interaction, webhooks — run in this order (counters deferred). Services import `dispatch` from here. See `./README.md`.
 */
import "./core.ts";
import { lastInteractionListener } from "../contacts/listener.ts";
import { countersListener } from "./counters.ts";
import { realtimeListener } from "./realtime.ts";
import { socketsListener } from "./sockets.ts";
import { addListener } from "./registry.ts";
import { webhooksListener } from "./webhooks.ts";

addListener(realtimeListener);
addListener(socketsListener);
addListener(countersListener);
addListener(lastInteractionListener);
addListener(webhooksListener);

export { dispatch, settleDeferred } from "./dispatch.ts";
export { defineEvents, type DomainEvent, type EventMap, type EventType } from "./registry.ts";
export { realtimeFrames } from "./realtime.ts";
export { redriveOutbox } from "./outbox.ts";
