/**
 * The shared preamble of the integration tests (used by `*.test.ts` only): `companyWorld(...)` registers the
 * `beforeAll`/`afterAll` hooks that start the realtime capture and build a company with its admin, optional queues, a
 * connection and agents, and optionally another company; the returned object is filled in by `beforeAll`.
 */
import { afterAll, beforeAll } from "vitest";
import { makeQueue, makeWhatsapp } from "../shared/src/tickets/fixtures.testkit.ts";
import { startRealtimeCapture } from "../shared/src/users/realtime-capture.testkit.ts";
import { makeCompany, makeUser, type TestUser } from "./helpers.ts";

export interface World {
  cid: number;
  admin: TestUser;
  /** Queue ids, in the order of `opts.queues`. */
  queues: number[];
  /** The connection id (0 without `opts.whatsapp`). */
  wa: number;
  /** Agents (profile user), in the order of `opts.agents`. */
  agents: TestUser[];
  /** Another company (only with `opts.other`). */
  other: { companyId: number; admin: TestUser };
  capture: Awaited<ReturnType<typeof startRealtimeCapture>>;
}

/**
 * Declares the test file's world. `queues`: queue names; `agents`: one agent per entry, with the indexes of their queues
 * in `queues` and an optional name; `whatsapp`: a default connection; `other`: a second company (cross-company checks).
 */
export function companyWorld(opts: { queues?: string[]; whatsapp?: boolean; agents?: { queues?: number[]; name?: string }[]; other?: boolean } = {}): World {
  const w = { queues: [] as number[], agents: [] as TestUser[], wa: 0 } as unknown as World;
  beforeAll(async () => {
    w.capture = await startRealtimeCapture();
    const c = await makeCompany();
    w.cid = c.companyId;
    w.admin = c.admin;
    for (const name of opts.queues ?? []) w.queues.push((await makeQueue(w.cid, { name })).id);
    if (opts.whatsapp) w.wa = (await makeWhatsapp(w.cid)).id;
    for (const a of opts.agents ?? []) w.agents.push(await makeUser(w.cid, { queueIds: (a.queues ?? []).map((i) => w.queues[i]), name: a.name }));
    if (opts.other) w.other = await makeCompany();
  });
  afterAll(async () => w.capture?.stop());
  return w;
}
