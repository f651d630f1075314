/**
 * Every realtime frame has a zod schema (`defineFrames`, beside its mapper), and a frame whose data does not match it
 * fails the test that produced it: tsc refuses the wrong shape in a mapper, and under tests the realtime listener
 * refuses to send it and the test set-up fails the test.
 */
import { describe, expect, it } from "vitest";
import "../announcements/events.ts";
import "../chats/events.ts";
import "../schedules/events.ts";
import "../contacts/events.ts";
import "../contactLists/events.ts";
import "../fileLists/events.ts";
import "../integrations/events.ts";
import "../jobs/events.ts";
import "../logos/events.ts";
import "../invoices/events.ts";
import "../messages/events.ts";
import "../queues/events.ts";
import "../queues/options/events.ts";
import "../quickMessages/events.ts";
import "../prompts/events.ts";
import "../settings/events.ts";
import "../tags/events.ts";
import "../tickets/events.ts";
import "../users/events.ts";
import "../whatsapp/events.ts";
import type { TagItem } from "../tags/schema.ts";
import { registerSocket } from "../users/realtime-capture.testkit.ts";
import { companyWorld } from "../../../test/world.ts";
import { definedFrameNames, frameIssues, type FrameName } from "./frames.ts";
import { baseEvent, defineEvents, dispatch, realtimeFrames } from "./index.ts";
import { assertNoFrameViolations, takeFrameViolations } from "./realtime.ts";

declare module "./registry.ts" {
  interface EventMap {
    /** Test only: a tag change whose mapper sends one right and one wrong `tag` frame. */
    "test.tagFrames": { type: "test.tagFrames"; companyId: number; tag: TagItem };
  }
}
defineEvents({ "test.tagFrames": baseEvent("test.tagFrames").passthrough() });
realtimeFrames("test.tagFrames", (e) => [
  { name: "tag", data: { action: "update", tag: e.tag } },
  // @ts-expect-error a tag's colour is a string: tsc refuses this frame in a mapper
  { name: "tag", data: { action: "update", tag: { ...e.tag, color: 7 } } },
]);

const w = companyWorld();

const now = new Date().toISOString();
const tag = (companyId: number): TagItem => ({ id: 5, companyId, name: "VIP", color: "#A4CCCC", kanban: 0, userId: null, ticketsCount: 0, createdAt: now, updatedAt: now });

describe("realtime frame schemas", () => {
  it("declares a schema for every frame name of the map", () => {
    // A record over every name: tsc fails here when the map gains a frame this list lacks.
    const names: Record<FrameName, true> = {
      ticket: true, appMessage: true, contact: true, user: true, auth: true, whatsapp: true, whatsappSession: true,
      queue: true, queueOption: true, tag: true, quickmessage: true, settings: true, job: true, chat: true, announcement: true,
      schedule: true,
      prompt: true,
      queueIntegration: true,
      payment: true,
      ContactList: true, ContactListItem: true,
      file: true,
      campaign: true,
      logo: true,
    };
    expect(definedFrameNames()).toEqual(Object.keys(names).sort());
  });

  it("names the field a frame gets wrong, and refuses a frame nobody declared", () => {
    expect(frameIssues("tag", { action: "delete", tagId: 5 })).toEqual([]);
    expect(frameIssues("tag", { action: "delete", tagId: "5" })).toEqual([expect.objectContaining({ path: "tagId" })]);
    expect(frameIssues("ticket", { action: "update", ticket: { id: 1 } }).map((i) => i.path)).toContain("ticket.uuid");
    expect(frameIssues("tagz", { action: "delete", tagId: 5 })).toEqual([{ path: "", message: "no schema declared for frame tagz" }]);
  });

  it("does not send a frame that fails its schema, sends the right one, and fails the test that produced it", async () => {
    const companyId = 900_000 + Math.floor(Math.random() * 99_999);
    const conn = await registerSocket(companyId, { id: 1, profile: "admin" });
    await dispatch({ type: "test.tagFrames", companyId, tag: tag(companyId) });

    const sent = w.capture.frames.filter((f) => f.connectionId === conn);
    expect(sent.map((f) => [f.event, f.data.tag.color])).toEqual([[`company-${companyId}-tag`, "#A4CCCC"]]);
    // What the set-up's afterEach runs: it throws, naming the event, the frame and the field.
    let failure: unknown;
    try {
      assertNoFrameViolations();
    } catch (err) {
      failure = err;
    }
    expect(String(failure)).toMatch(/test\.tagFrames.*"name":"tag".*"path":"tag\.color"/);
    expect(takeFrameViolations()).toEqual([]);
  });
});
