/**
 * Domain events, what a feature uses: `dispatch` (say what happened), `defineEvents` / `baseEvent` (declare a
 * feature's events), `realtimeFrames` (their frames). A leaf: it loads the registry and the dispatcher only, never a
 * listener, so a service importing it pulls in no other feature. The listeners are wired in `./wiring.ts`, imported
 * by the entry points alone (Lambda handlers, the tick, the session runner's main, the test set-up). See `./README.md`.
 */
export { deferWork, dispatch, settleDeferred } from "./dispatch.ts";
export { baseEvent, defineEvents, type DomainEvent, type EventMap, type EventOf, type EventType } from "./registry.ts";
export { defineFrames, realtimeFrames, type Frame } from "./frames.ts";
