/**
 * The `ticketSummaries` listener: keeps the summaries stored on ticket items (`./summaries.ts`) current when the
 * entities they copy change. Eventually consistent: see `./summaries.ts`.
 */
import { ticketGramWrites } from "../search/writes.ts";
import { keys } from "../db/keys.ts";
import { pagesFrom, queryPagesFrom } from "../db/query.ts";
import type { DomainEvent, Listener } from "../events/registry.ts";
import { getContactItem } from "../contacts/repository.ts";
import { getQueue } from "../queues/repository.ts";
import { getUser } from "../users/repository.ts";
import { getWhatsappItem } from "../whatsapp/repository.ts";
import { getTag, queryTagEdges } from "../tags/repository.ts";
import type {} from "../tags/events.ts"; // the event types this listener handles (types only)
import type {} from "../queues/events.ts";
import type {} from "../contacts/events.ts";
import type {} from "../users/events.ts";
import type {} from "../whatsapp/events.ts";
import { setTicketSummaryPart, setTicketTagSummary } from "./repository.ts";
import {
  CONTACT_SUMMARY_FIELDS,
  contactSummaryOf,
  queueSummaryOf,
  SUMMARY_REFRESH_LIMIT,
  tagSummaryOf,
  userSummaryOf,
  whatsappSummaryOf,
  type ContactSummary,
  type NamedColored,
} from "./summaries.ts";

/** Concurrent ticket updates of one refresh. */
const PARALLEL = 8;

type Part = "sumContact" | "sumQueue" | "sumUser" | "sumWhatsapp";
/** The ticket attribute a part's summary must match (a ticket moved meanwhile is left alone). */
const OWNER: Record<Part, string> = { sumContact: "contactId", sumQueue: "queueId", sumUser: "userId", sumWhatsapp: "whatsappId" };

/** One source of affected tickets: an index partition (newest first), optionally narrowed by the owner id. */
type Source = { index: "GSI1" | "GSI2" | "GSI3" | "GSI4"; pk: string; skPrefix?: string; filterOwner?: boolean };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Runs `fn` over `xs` with at most {@link PARALLEL} at once. */
async function eachLimited<T>(xs: T[], fn: (x: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < xs.length; i += PARALLEL) await Promise.all(xs.slice(i, i + PARALLEL).map(fn));
}

/**
 * Sets `part` = `value` on the tickets of each source whose `OWNER[part]` is `ownerId` and whose stored value differs,
 * at most {@link SUMMARY_REFRESH_LIMIT} tickets read per source. Each write is conditioned on the owner id still being
 * `ownerId`. Returns how many tickets were updated.
 */
async function refreshPart(
  part: Part,
  ownerId: number,
  value: unknown,
  sources: Source[],
  alsoWrite?: (ticketId: number, stored: unknown) => ReturnType<typeof ticketGramWrites>,
): Promise<number> {
  let updated = 0;
  const owner = OWNER[part];
  for (const src of sources) {
    let read = 0;
    const values: Record<string, unknown> = { ":pk": src.pk };
    let cond = `${src.index}PK = :pk`;
    if (src.skPrefix) {
      cond += ` AND begins_with(${src.index}SK, :sp)`;
      values[":sp"] = src.skPrefix;
    }
    if (src.filterOwner) values[":o"] = ownerId;
    const input = {
      IndexName: src.index,
      KeyConditionExpression: cond,
      ExpressionAttributeValues: values,
      ProjectionExpression: "PK, SK, id, #o, #p",
      ExpressionAttributeNames: { "#o": owner, "#p": part },
      ...(src.filterOwner ? { FilterExpression: "#o = :o" } : {}),
      ScanIndexForward: false,
    };
    // Pages of at most 100, until SUMMARY_REFRESH_LIMIT items were read (a filtered read counts what it scanned).
    for await (const page of queryPagesFrom(input, undefined, () => (read < SUMMARY_REFRESH_LIMIT ? Math.min(100, SUMMARY_REFRESH_LIMIT - read) : null))) {
      read += page.scanned;
      const stale = page.items.filter((it) => Number(it[owner]) === ownerId && it[part] !== undefined && !same(it[part], value));
      await eachLimited(stale, async (it) => {
        if (await setTicketSummaryPart({ PK: String(it.PK), SK: String(it.SK) }, part, owner, ownerId, value, alsoWrite?.(Number(it.id), it[part]) ?? [])) updated++;
      });
    }
  }
  return updated;
}

const STATUSES = ["open", "pending", "closed"] as const;

/** Sets one tag's entry in `sumTags` on the tickets carrying it (tag edges on GSI4), at most {@link SUMMARY_REFRESH_LIMIT}. */
async function refreshTag(companyId: number, tag: NamedColored): Promise<number> {
  let updated = 0;
  let read = 0;
  const pages = pagesFrom((startKey) =>
    read < SUMMARY_REFRESH_LIMIT ? queryTagEdges(companyId, tag.id, { limit: Math.min(100, SUMMARY_REFRESH_LIMIT - read), startKey }) : null,
  );
  for await (const page of pages) {
    read += page.edges.length;
    await eachLimited(page.edges, async (e) => {
      if (await setTicketTagSummary(companyId, e.ticketId, tag)) updated++;
    });
  }
  return updated;
}

/**
 * Keeps the stored summaries current (events pattern, `shared/src/events/README.md`): `contact.updated` → the
 * contact's tickets (GSI4 `C#<cid>#CT#<contactId>`); `queue.updated` → GSI2 `S#<status>#Q#<qid>` per status;
 * `user.updated` → GSI3 `S#<status>#U#<uid>` per status; `whatsapp.updated|session` → GSI1 `S#<status>` per status,
 * narrowed to that connection; `tag.updated` → the tag's edges (GSI4 `C#<cid>#TAG#<tagId>`). Only tickets whose
 * stored summary differs are written; bounded by {@link SUMMARY_REFRESH_LIMIT} per partition; never a scan. Deleted
 * entities need nothing: the ticket's id no longer names them (or views fall back to a read that finds nothing).
 * Eventually consistent: see the module doc.
 */
export const ticketSummariesListener: Listener = {
  name: "ticketSummaries",
  durable: true,
  wants(event) {
    switch (event.type) {
      case "contact.updated":
        return !event.changed || event.changed.some((f) => CONTACT_SUMMARY_FIELDS.has(f));
      // A user's online flag or queues, a tag's ticket count: nothing a row shows.
      case "user.updated":
        return !event.changed || event.changed.includes("name");
      case "tag.updated":
        return !event.changed || event.changed.some((f) => f === "name" || f === "color");
      // Rows show a connection's name and status: a new QR code or retry count leaves them as they are.
      case "whatsapp.session":
        return event.previousStatus === undefined || event.previousStatus !== event.whatsapp.status;
      case "queue.updated":
      case "whatsapp.updated":
        return true;
      default:
        return false;
    }
  },
  async handle(given, run) {
    const cid = given.companyId;
    const event = run?.redriven ? await currentState(given) : given;
    if (!event) return;
    switch (event.type) {
      case "contact.updated": {
        const c = event.contact;
        // Only "Última interação" moved (one write a minute per chatting contact): no summary field changed.
        if (event.changed && !event.changed.some((f) => CONTACT_SUMMARY_FIELDS.has(f))) break;
        const next = contactSummaryOf(c);
        // With the summary, the ticket-side search grams move to the contact's new words (search/writes.ts).
        await refreshPart("sumContact", c.id, next, [{ index: "GSI4", pk: keys.contactTicketsPK(cid, c.id), skPrefix: keys.ticketEdgePrefix }], (tid, stored) =>
          ticketGramWrites(cid, tid, stored as ContactSummary, next),
        );
        break;
      }
      case "queue.updated": {
        const q = event.queue as unknown as Record<string, unknown>;
        const id = Number(q.id);
        await refreshPart("sumQueue", id, queueSummaryOf(q), STATUSES.map((s) => ({ index: "GSI2" as const, pk: keys.ticketQueuePK(cid, s, id) })));
        break;
      }
      case "user.updated": {
        const u = event.user as unknown as Record<string, unknown>;
        const id = Number(u.id);
        await refreshPart("sumUser", id, userSummaryOf(u), STATUSES.map((s) => ({ index: "GSI3" as const, pk: keys.ticketUserPK(cid, s, id) })));
        break;
      }
      case "whatsapp.updated":
      case "whatsapp.session": {
        const w = event.whatsapp as unknown as Record<string, unknown>;
        const id = Number(w.id);
        await refreshPart("sumWhatsapp", id, whatsappSummaryOf(w), STATUSES.map((s) => ({ index: "GSI1" as const, pk: keys.ticketStatusPK(cid, s), filterOwner: true })));
        break;
      }
      case "tag.updated": {
        const g = event.tag as unknown as Record<string, unknown>;
        await refreshTag(cid, tagSummaryOf(g));
        break;
      }
    }
  },
};

/**
 * A re-driven event with the entity as it is stored now (an old event replayed after newer ones must not write an
 * old name back), or null when the entity is gone.
 */
async function currentState(e: DomainEvent): Promise<DomainEvent | null> {
  const cid = e.companyId;
  switch (e.type) {
    case "contact.updated": {
      const contact = await getContactItem(cid, e.contact.id, true);
      return contact ? { ...e, contact, changed: undefined } : null;
    }
    case "queue.updated": {
      const queue = await getQueue(cid, e.queue.id);
      return queue ? { ...e, queue } : null;
    }
    case "user.updated": {
      const user = await getUser(cid, e.user.id);
      return user ? { ...e, user: { ...e.user, name: user.name } } : null;
    }
    case "whatsapp.updated":
    case "whatsapp.session": {
      const whatsapp = await getWhatsappItem(cid, e.whatsapp.id);
      return whatsapp ? { ...e, whatsapp } : null;
    }
    case "tag.updated": {
      const tag = await getTag(cid, e.tag.id);
      return tag ? { ...e, tag } : null;
    }
    default:
      return e;
  }
}
