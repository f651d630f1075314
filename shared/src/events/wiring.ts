/**
 * The composition root of the domain events: every listener, in the order `dispatch` runs them. Imported ONLY by
 * entry points (the HTTP area handler factory, the WebSocket handlers, the jobs and the minute tick, the session
 * runner's main, the test set-up), never by a service, so importing a service loads no listener and no other
 * feature, and no import cycle runs through the events (`npm test`'s cycle check holds it).
 *
 * Order: the caches first (a listener reading after them sees fresh data), realtime before sockets (a revoked tab
 * still gets the frame telling it why), then the listeners carrying rules. See `./README.md`.
 */
import { authCacheListener } from "../auth/cache-listener.ts";
import { campaignFailuresListener, campaignRepliesListener } from "../campaigns/engine.ts";
import { lastInteractionListener } from "../contacts/listener.ts";
import { platformSessionsListener } from "../dashboard/listener.ts";
import { readCacheListener } from "../ingest/read-cache.ts";
import { reportContactsListener } from "../reports/listener.ts";
import { kanbanLanesListener } from "../kanban/listener.ts";
import { assistantListener } from "../prompts/assistant.ts";
import { ticketSummariesListener } from "../tickets/summaries-listener.ts";
import { ticketTimersListener } from "../timers/ticket-listener.ts";
import { webhooksListener } from "../webhooks/listener.ts";
import { pushListener, pushRevocationListener } from "../push/listener.ts";
import { countersListener } from "./counters.ts";
import { deleteAppliedRuns, runDurable } from "./durable.ts";
import { realtimeListener } from "./realtime.ts";
import { addListener, setDurableRunner } from "./registry.ts";
import { socketsListener } from "./sockets.ts";

// Listeners declared `durable` keep a pending run until they succeeded (re-driven by the minute tick).
setDurableRunner({ run: runDurable, deleteApplied: deleteAppliedRuns });

addListener(authCacheListener);
addListener(readCacheListener);
addListener(realtimeListener);
addListener(socketsListener);
addListener(ticketSummariesListener);
addListener(reportContactsListener);
addListener(countersListener);
addListener(lastInteractionListener);
addListener(webhooksListener);
addListener(ticketTimersListener);
addListener(platformSessionsListener);
addListener(kanbanLanesListener);
addListener(campaignRepliesListener);
addListener(campaignFailuresListener);
addListener(assistantListener);
addListener(pushListener);
addListener(pushRevocationListener);
