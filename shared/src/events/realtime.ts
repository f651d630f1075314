/**
 * The realtime listener: turns a domain event into the spec's frames `{"event":"company-{id}-{name}","data":...}`
 * (names and shapes unchanged; the mappers come from each feature's `events.ts` through `./frames.ts`) and sends them
 * to the sockets the audience allows. The company's sockets are listed ONCE per event; each socket is checked with the
 * one access rule (`access/tickets.ts` `canSee`, `access/permissions.ts` `can`). Best-effort: the web refetches on
 * reconnect.
 *
 * Under tests (and with `ATENDE_CHECK_EVENTS=1`) each frame's data is parsed with its name's schema (`defineFrames`)
 * before anything is sent, like the HTTP answers' contract check: a frame that does not match is logged, not sent, and
 * kept for {@link assertNoFrameViolations}, which the test set-up runs after every test (the test then fails).
 */
import { queuePlatformFrames } from "../realtime/platform.ts";
import { sendFrames, type OutboundFrame } from "../realtime/publish.ts";
import { log } from "../log.ts";
import { checksSchemas } from "./dispatch.ts";
import { frameIssues, framesOf } from "./frames.ts";
import type { Listener } from "./registry.ts";

export { framesOf, realtimeFrames, type Frame } from "./frames.ts";

/** A frame that did not match its schema: the event that produced it, the frame's name and zod's issues. */
export interface FrameViolation {
  type: string;
  name: string;
  issues: { path: string; message: string }[];
}

const violations: FrameViolation[] = [];

/** The frames refused by the schema check since the last call (and forgets them). */
export function takeFrameViolations(): FrameViolation[] {
  return violations.splice(0);
}

/**
 * Throws when a frame was refused by the schema check since the last call (naming the first three: event type, frame
 * name, issues), and forgets them. The test set-up runs it after every test, so a wrong frame fails its test.
 */
export function assertNoFrameViolations(): void {
  const bad = takeFrameViolations();
  if (bad.length) throw new Error(`realtime frames that do not match their schema: ${JSON.stringify(bad.slice(0, 3))}`);
}

/** The listener: maps the event, then sends every frame over one listing of the company's sockets. */
export const realtimeListener: Listener = {
  name: "realtime",
  async handle(event) {
    const { type, companyId } = event as { type: string; companyId: number };
    let frames = await framesOf(event);
    if (checksSchemas()) {
      frames = frames.filter((f) => {
        const issues = frameIssues(f.name, f.data);
        if (!issues.length) return true;
        log("error", "realtime: frame does not match its schema", { type, companyId, name: f.name, issues: issues.slice(0, 5) });
        violations.push({ type, name: f.name, issues });
        return false;
      });
    }
    if (!frames.length) return;
    const outbound = (f: (typeof frames)[number]): OutboundFrame => ({ name: f.name, data: f.data, audience: f.audience ?? { kind: "company" }, room: f.room });
    const company = frames.filter((f) => !f.platform).map(outbound);
    const platform = frames.filter((f) => f.platform).map(outbound);
    if (company.length) await sendFrames(companyId, company);
    // Off the request: one dispatch-queue job per shard of the platform channel (realtime/platform.ts).
    if (platform.length) await queuePlatformFrames(platform);
  },
};
