/**
 * Every DynamoDB key string of the product (docs/architecture.md#3-the-table). Nothing else builds keys.
 * Tenant keys start with `C#<companyId>`; ids are the product's numeric ids (as strings of digits).
 */

import { getConfig } from "../config.ts";

type Id = number | string;

/** Zero-pads numeric ids so that lexical order is numeric order inside sort keys. */
export const pad = (n: Id, width = 10) => String(n).padStart(width, "0");

/**
 * The due indexes and their default shard counts. Each shard is one partition whose sort key is a due time (always
 * increasing), so it takes at most about 1,000 writes/s: the defaults cap the platform at about 8,000 outbox,
 * 8,000 outbound and 4,000 timer writes per second (docs/architecture.md §3 "Due indexes and their ceiling").
 */
/** Partitions of the platform socket channel (`keys.wsPlatformIndex`). */
export const WS_PLATFORM_SHARDS = 8;
/** Shards of the platform-wide index of push subscriptions (`keys.pushPlatformIndex`). */
export const PUSH_PLATFORM_SHARDS = 4;

export const DUE_INDEX_SHARDS = { outbox: 8, outbound: 8, timers: 4, schedules: 8 } as const;
export type DueIndex = keyof typeof DUE_INDEX_SHARDS;

/** How many shards new items of due index `index` are spread over: setting `DUE_SHARDS`, else the index's default. */
export function dueShardsOf(index: DueIndex): number {
  return getConfig().DUE_SHARDS ?? DUE_INDEX_SHARDS[index];
}

/**
 * How many shards the readers (the minute tick) of due index `index` walk: the most ever written to, i.e. the
 * current count, the default and `DUE_SHARDS_PREVIOUS`, whichever is largest. Raising `DUE_SHARDS` from 8 to 16
 * spreads new items over 16 shards while the items written under 8 stay in shards 0-7, which the readers still walk.
 */
export function dueShardsToRead(index: DueIndex): number {
  return Math.max(dueShardsOf(index), DUE_INDEX_SHARDS[index], getConfig().DUE_SHARDS_PREVIOUS ?? 0);
}

/**
 * The shard (0 … `shards` − 1) of an item named by `name`: a stable string hash, so the writer and every later
 * reader of the item compute the same partition (outbox, timers, outbound pending) while the count stays the same.
 */
export function shardOfName(name: string, shards: number): number {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h % shards;
}

/** The shard of a new item named `name` in due index `index` ({@link dueShardsOf} shards). */
export function dueShardOfName(index: DueIndex, name: string): number {
  return shardOfName(name, dueShardsOf(index));
}

/** Sort key of a ticket on its three list indexes (GSI1-3): `<updatedAt>#<id>`, newest activity last. */
const ticketListSK = (updatedAt: string, tid: Id) => `${updatedAt}#${pad(tid)}`;
/** Sort key of a ticket's item in a search word or ticket-gram partition (`keys.searchTicketSK`). */
const searchTicketSK = (tid: Id) => `T#${pad(tid)}`;
/** GSI4 sort key of a ticket under its contact or one of its tags: `T#<createdAt>#<id>`. */
const ticketEdgeSK = (createdAt: string, tid: Id) => `T#${createdAt}#${pad(tid)}`;
/** GSI1 sort-key prefix of contacts whose normalized name starts with `normalizedPrefix` ("" = every contact). */
const contactNamePrefix = (normalizedPrefix: string) => `N#${normalizedPrefix}`;
/** GSI2 sort-key prefix of contacts whose number starts with `digits`. */
const contactNumberPrefix = (digits: string) => `P#${digits}`;
/** The GSI4 partition of outbound messages waiting at ack 0 in due-index shard `shard` (`messages/delivery.ts`). */
const outboundDuePK = (shard: number) => `OUTDUE#${shard}`;

export const keys = {
  // ---- global -------------------------------------------------------------
  /** Company item (PK; SK `#COMPANY`). Listed through GSI1 `COMPANIES`. */
  company: (cid: Id) => ({ PK: `C#${cid}`, SK: "#COMPANY" }),
  companiesIndex: (cid: Id) => ({ GSI1PK: "COMPANIES", GSI1SK: pad(cid) }),
  /** Plans are global (super user). */
  plan: (planId: Id) => ({ PK: "PLANS", SK: `PLAN#${pad(planId)}` }),
  plansPrefix: () => ({ PK: "PLANS", SKPrefix: "PLAN#" }),
  /** Help videos are global: one platform list every company reads (super user writes). */
  help: (helpId: Id) => ({ PK: "HELPS", SK: `HELP#${pad(helpId)}` }),
  helpsPrefix: () => ({ PK: "HELPS", SKPrefix: "HELP#" }),
  /** Global email uniqueness marker (holds cid, uid). */
  email: (email: string) => ({ PK: `EMAIL#${email.trim().toLowerCase()}`, SK: "#" }),
  /** Atomic id counter: `scope` is a company id or `GLOBAL`; `entity` e.g. `user`, `ticket`. */
  counter: (scope: Id | "GLOBAL", entity: string) => ({ PK: scope === "GLOBAL" ? "SEQ" : `C#${scope}`, SK: `SEQ#${entity}` }),
  /** Single-use WebSocket ticket, by the SHA-256 of the ticket (TTL'd, 60 s). */
  wsTicket: (digest: string) => ({ PK: `WSTICKET#${digest}`, SK: "#" }),
  /** Rate-limit bucket of a public form (`scope`: e.g. `signup-ip`, `reset-email`; `value` lower-cased), TTL'd. */
  rateLimit: (scope: string, value: string) => ({ PK: `RATE#${scope}#${value.toLowerCase()}`, SK: "#" }),
  /** The pending password-reset code of an email (its hash, expiry and attempts), TTL'd. */
  passwordReset: (email: string) => ({ PK: `PWRESET#${email.trim().toLowerCase()}`, SK: "#" }),
  /** The company's media objects in the bucket (`media/<cid>/`), removed with the company. */
  companyMediaPrefix: (cid: Id) => `media/${cid}/`,
  /** Login throttle bucket (per email, per IP, or per `email|ip` pair), TTL'd. */
  throttle: (kind: "email" | "ip" | "pair", value: string) => ({ PK: `THROTTLE#${kind}#${value.toLowerCase()}`, SK: "#" }),

  // ---- company partition (small, bounded config entities) -----------------
  companyPartition: (cid: Id) => `C#${cid}`,
  /** SK prefixes of the entities in the company partition (and of notes in a ticket partition), for prefix queries. */
  prefix: { user: "USER#", queue: "QUEUE#", setting: "SET#", whatsapp: "WACONN#", tag: "TAG#", quickMessage: "QUICK#", note: "NOTE#", schedule: "SCHED#" },
  user: (cid: Id, uid: Id) => ({ PK: `C#${cid}`, SK: `USER#${pad(uid)}` }),
  queue: (cid: Id, qid: Id) => ({ PK: `C#${cid}`, SK: `QUEUE#${pad(qid)}` }),
  /** Queue colour uniqueness marker inside a company. */
  queueColor: (cid: Id, color: string) => ({ PK: `C#${cid}`, SK: `QCOLOR#${color.toLowerCase()}` }),
  /** Queue name uniqueness marker inside a company (trimmed, lower case). */
  queueName: (cid: Id, name: string) => ({ PK: `C#${cid}`, SK: `QNAME#${name.trim().toLowerCase()}` }),
  /** Queue option (chatbot tree node; docs/product/queues.md#options): all of a queue's options share the prefix. */
  queueOption: (cid: Id, qid: Id, optionId: Id) => ({ PK: `C#${cid}`, SK: `QOPT#${pad(qid)}#${pad(optionId)}` }),
  queueOptionsPrefix: (qid: Id) => `QOPT#${pad(qid)}#`,
  /** Option id → its queue (for `/queue-options/{id}` routes); holds `queueId`. */
  queueOptionRef: (cid: Id, optionId: Id) => ({ PK: `C#${cid}`, SK: `QOPTID#${pad(optionId)}` }),
  tag: (cid: Id, tagId: Id) => ({ PK: `C#${cid}`, SK: `TAG#${pad(tagId)}` }),
  /** Tag name uniqueness marker inside a company (trimmed, lower case); holds `tagId`. */
  tagName: (cid: Id, name: string) => ({ PK: `C#${cid}`, SK: `TNAME#${name.trim().toLowerCase()}` }),
  /** A background job (`jobs/`): its progress and resume point. */
  job: (cid: Id, jobId: string) => ({ PK: `C#${cid}#JOB#${jobId}`, SK: "#" }),
  setting: (cid: Id, key: string) => ({ PK: `C#${cid}`, SK: `SET#${key}` }),
  /** How many users, connections or queues the company has, kept exact in their creations' and deletions' transactions (`plans/limits.ts`). */
  planCount: (cid: Id, kind: string) => ({ PK: `C#${cid}`, SK: `PLANCOUNT#${kind}` }),
  /** A platform-wide setting (the super's global section: `allowregister`, `viewregister`, `trial`), read unauthenticated by /login. */
  globalSetting: (key: string) => ({ PK: "SETTINGS", SK: `SET#${key}` }),
  globalSettingsPartition: "SETTINGS",
  /** A platform logo (`shared/src/logos/`): one item per destination, in the platform settings' partition. */
  logo: (ref: string) => ({ PK: "SETTINGS", SK: `LOGO#${ref}` }),
  logoPrefix: "LOGO#",
  quickMessage: (cid: Id, id: Id) => ({ PK: `C#${cid}`, SK: `QUICK#${pad(id)}` }),
  /** An AI prompt (`shared/src/prompts/`, docs/product/prompts.md), in the company partition. */
  prompt: (cid: Id, id: Id) => ({ PK: `C#${cid}`, SK: `PROMPT#${pad(id)}` }),
  promptPrefix: "PROMPT#",
  /** The AI provider's token use of a company on one local day (`yyyy-mm-dd`): counters ADDed after each answer. */
  aiUsage: (cid: Id, day: string) => ({ PK: `C#${cid}#AIUSE`, SK: `D#${day}` }),
  /** A queue integration (Typebot, n8n, webhook, Dialogflow) in the company partition. */
  integration: (cid: Id, id: Id) => ({ PK: `C#${cid}`, SK: `QINT#${pad(id)}` }),
  integrationsPrefix: "QINT#",
  /** A ticket's conversation with its integration's bot (Typebot session), in the ticket's partition. */
  botSession: (cid: Id, tid: Id) => ({ PK: `C#${cid}#TK#${tid}`, SK: "BOTSESSION" }),
  /** An invoice (docs/product/invoices.md) in the company partition; `invoicePrefix` lists a company's. */
  invoice: (cid: Id, id: Id) => ({ PK: `C#${cid}`, SK: `INV#${pad(id)}` }),
  invoicePrefix: "INV#",
  /** One invoice per company and due date: the marker its creation is conditioned on (holds `invoiceId`). */
  invoiceDue: (cid: Id, dueDate: string) => ({ PK: `C#${cid}`, SK: `INVDUE#${dueDate}` }),
  /** Invoice id → its company (holds `companyId`): a super user marks any company's invoice paid. */
  invoiceRef: (id: Id) => ({ PK: `INVOICE#${pad(id)}`, SK: "#" }),
  /** Internal chat (docs/product/chats.md): the chat item, with its members and their unread counts, in the company partition. */
  chat: (cid: Id, id: Id) => ({ PK: `C#${cid}`, SK: `CHAT#${pad(id)}` }),
  chatPrefix: "CHAT#",
  /** A chat's messages: one partition per chat, sorted by time (`createdAt` ISO, then the message id). */
  chatMessage: (cid: Id, chatId: Id, createdAt: string, id: Id) => ({ PK: `C#${cid}#CHAT#${pad(chatId)}`, SK: `CM#${createdAt}#${pad(id)}` }),
  chatMessagesPK: (cid: Id, chatId: Id) => `C#${cid}#CHAT#${pad(chatId)}`,
  /** Announcements (docs/product/announcements.md): platform-wide, one partition for all of them. */
  announcement: (id: Id) => ({ PK: "ANNOUNCEMENTS", SK: `ANN#${pad(id)}` }),
  announcementsPK: "ANNOUNCEMENTS",
  announcementPrefix: "ANN#",
  whatsapp: (cid: Id, wid: Id) => ({ PK: `C#${cid}`, SK: `WACONN#${pad(wid)}` }),
  /** Connections by session shard (sparse), read by the runner at boot. */
  whatsappShardIndex: (shard: number, cid: Id, wid: Id) => ({ GSI1PK: `WASHARD#${shard}`, GSI1SK: `${cid}#${pad(wid)}` }),
  /** Public API token → connection. */
  /** The lookup item of a connection's API token, keyed by the token's SHA-256 (`whatsapp/token.ts`), never the token. */
  whatsappToken: (tokenHash: string) => ({ PK: `WATOKEN#${tokenHash}`, SK: "#" }),
  campaign: (cid: Id, id: Id) => ({ PK: `C#${cid}`, SK: `CAMPAIGN#${pad(id)}` }),
  campaignPrefix: "CAMPAIGN#",
  /** A campaign's shipping (one per campaign and contact, docs/product/campaigns.md): its own partition, by sequence. */
  campaignShipping: (cid: Id, campaignId: Id, seq: Id) => ({ PK: `C#${cid}#CAMP#${pad(campaignId)}`, SK: `SHIP#${pad(seq)}` }),
  campaignShippingsPK: (cid: Id, campaignId: Id) => `C#${cid}#CAMP#${pad(campaignId)}`,
  campaignShippingSK: (seq: Id) => `SHIP#${pad(seq)}`,
  /** Above every shipping's sort key (the end of a range read). */
  campaignShippingsEndSK: "SHIP#\uffff",
  /** One audience member's uniqueness marker in a campaign (`number` digits): holds the shipping's `seq`. */
  campaignMember: (cid: Id, campaignId: Id, digits: string) => ({ PK: `C#${cid}#CAMP#${pad(campaignId)}`, SK: `NUM#${digits}` }),
  /** A connection's campaign pacing state (last send, sends since the longer pause, the day's count). */
  campaignPacer: (cid: Id, wid: Id) => ({ PK: `C#${cid}`, SK: `CAMPPACE#${pad(wid)}` }),
  /** A shipping waiting for its contact's reply on a connection (confirmation mode): holds `campaignId`, `seq`. */
  /** A campaign message's WhatsApp id → its shipping (holds `campaignId`, `seq`): a later failure of it is counted. */
  campaignMessage: (cid: Id, messageId: string) => ({ PK: `C#${cid}#CAMPMSG#${messageId}`, SK: "#" }),
  /** Campaign settings, one item per key (`messageInterval`, ..., `variables`), JSON-encoded value. */
  campaignSetting: (cid: Id, key: string) => ({ PK: `C#${cid}`, SK: `CAMPSET#${key}` }),
  campaignSettingPrefix: "CAMPSET#",
  schedule: (cid: Id, id: Id) => ({ PK: `C#${cid}`, SK: `SCHED#${pad(id)}` }),
  /** GSI1 due-time index of a scheduled message while it waits to be sent: `SCHEDDUE#<shard>` / `<due ISO>#<cid>#<id>`. */
  scheduleDueIndex: (shard: number, dueAt: string, cid: Id, id: Id) => ({ GSI1PK: `SCHEDDUE#${shard}`, GSI1SK: `${dueAt}#${cid}#${pad(id)}` }),
  scheduleDuePK: (shard: number) => `SCHEDDUE#${shard}`,
  /** A company webhook (docs/product/webhooks.md), in the company partition. */
  webhook: (cid: Id, id: Id) => ({ PK: `C#${cid}`, SK: `HOOK#${pad(id)}` }),
  webhookPrefix: "HOOK#",
  /** A webhook's delivery log: one partition per webhook, by the event's time (TTL'd on `expiresAt`). */
  webhookDelivery: (cid: Id, wid: Id, at: string, eventId: string) => ({ PK: `C#${cid}#HOOK#${pad(wid)}`, SK: `DLV#${at}#${eventId}` }),
  webhookDeliveriesPK: (cid: Id, wid: Id) => `C#${cid}#HOOK#${pad(wid)}`,
  webhookDeliveryPrefix: "DLV#",

  // ---- contact lists and file lists (docs/product/contact-lists.md) -------------
  /** A contact list (name, exact `contactsCount`) in the company partition. */
  contactList: (cid: Id, id: Id) => ({ PK: `C#${cid}`, SK: `CLIST#${pad(id)}` }),
  contactListPrefix: "CLIST#",
  /** A contact list's own partition: its items (`CLI#<id>`) and one number marker per item (`NUM#<digits>`, holds `itemId`). */
  contactListItemsPK: (cid: Id, listId: Id) => `C#${cid}#CLIST#${pad(listId)}`,
  contactListItem: (cid: Id, listId: Id, id: Id) => ({ PK: `C#${cid}#CLIST#${pad(listId)}`, SK: `CLI#${pad(id)}` }),
  contactListItemPrefix: "CLI#",
  contactListNumber: (cid: Id, listId: Id, digits: string) => ({ PK: `C#${cid}#CLIST#${pad(listId)}`, SK: `NUM#${digits}` }),
  /** Contact list item id → its list (for `/contact-list-items/{id}` routes); holds `contactListId`. */
  contactListItemRef: (cid: Id, id: Id) => ({ PK: `C#${cid}#CLITEM#${pad(id)}`, SK: "#" }),
  /** A file list (name, message, its files as `options`) in the company partition. */
  fileList: (cid: Id, id: Id) => ({ PK: `C#${cid}`, SK: `FILES#${pad(id)}` }),
  fileListPrefix: "FILES#",

  // ---- contacts -----------------------------------------------------------
  contact: (cid: Id, ctid: Id) => ({ PK: `C#${cid}#CT#${ctid}`, SK: "#CONTACT" }),
  /** GSI1: contacts by normalized name; GSI2: by number digits. */
  contactNameIndex: (cid: Id, normalizedName: string, ctid: Id) => ({ GSI1PK: `C#${cid}#CONTACTS`, GSI1SK: `${contactNamePrefix(normalizedName)}#${pad(ctid)}` }),
  contactNumberIndex: (cid: Id, digits: string, ctid: Id) => ({ GSI2PK: `C#${cid}#CONTACTS`, GSI2SK: `${contactNumberPrefix(digits)}#${pad(ctid)}` }),
  contactNamePrefix,
  contactNumberPrefix,
  contactsIndexPK: (cid: Id) => `C#${cid}#CONTACTS`,
  /** Prefix of every contact partition of a company (`C#<cid>#CT#<id>`). */
  contactPartitionPrefix: (cid: Id) => `C#${cid}#CT#`,
  /** Uniqueness per company: phone digits (E.164 without +) and JID (LID too). Hold `contactId`. */
  contactPhone: (cid: Id, digits: string) => ({ PK: `C#${cid}#PHONE#${digits}`, SK: "#" }),
  /** One entry of a connection's phone book (Baileys `contacts.upsert`), by its JID. */
  phoneBookEntry: (cid: Id, wid: Id, jid: string) => ({ PK: `C#${cid}#PHONEBOOK#${pad(wid)}`, SK: `J#${jid}` }),
  /** The partition of a connection's phone book. */
  phoneBookPartition: (cid: Id, wid: Id) => `C#${cid}#PHONEBOOK#${pad(wid)}`,
  contactJid: (cid: Id, jid: string) => ({ PK: `C#${cid}#JID#${jid}`, SK: "#" }),

  // ---- tickets and their partition ----------------------------------------
  ticket: (cid: Id, tid: Id) => ({ PK: `C#${cid}#TK#${tid}`, SK: "#TICKET" }),
  ticketPartition: (cid: Id, tid: Id) => `C#${cid}#TK#${tid}`,
  /** Prefix of every ticket partition of a company (`C#<cid>#TK#<id>`). */
  ticketPartitionPrefix: (cid: Id) => `C#${cid}#TK#`,
  /** uuid → ticket id (for /tickets/u/{uuid} and /tickets/{uuid} in the web). */
  ticketUuid: (cid: Id, uuid: string) => ({ PK: `C#${cid}#TKUUID#${uuid}`, SK: "#" }),
  /** The four list indexes of a ticket; sort key `<updatedAt>#<id>`. GSI3 only when assigned. */
  ticketIndexes: (t: { companyId: Id; id: Id; status: string; queueId?: Id | null; userId?: Id | null; contactId: Id; updatedAt: string; createdAt: string }) => {
    const sk = ticketListSK(t.updatedAt, t.id);
    return {
      GSI1PK: `C#${t.companyId}#S#${t.status}`,
      GSI1SK: sk,
      GSI2PK: `C#${t.companyId}#S#${t.status}#Q#${t.queueId ?? "NONE"}`,
      GSI2SK: sk,
      ...(t.userId != null ? { GSI3PK: `C#${t.companyId}#S#${t.status}#U#${t.userId}`, GSI3SK: sk } : {}),
      GSI4PK: `C#${t.companyId}#CT#${t.contactId}`,
      GSI4SK: ticketEdgeSK(t.createdAt, t.id),
    };
  },
  ticketListSK,
  ticketEdgeSK,
  /** The common prefix of {@link keys.ticketEdgeSK} (every ticket of a contact or tag partition on GSI4). */
  ticketEdgePrefix: "T#",
  ticketStatusPK: (cid: Id, status: string) => `C#${cid}#S#${status}`,
  ticketQueuePK: (cid: Id, status: string, qid: Id | null) => `C#${cid}#S#${status}#Q#${qid ?? "NONE"}`,
  ticketUserPK: (cid: Id, status: string, uid: Id) => `C#${cid}#S#${status}#U#${uid}`,
  contactTicketsPK: (cid: Id, ctid: Id) => `C#${cid}#CT#${ctid}`,
  /** Message SK: ordered by WhatsApp timestamp (ISO), then id. */
  message: (cid: Id, tid: Id, waTimestampIso: string, msgId: string) => ({ PK: `C#${cid}#TK#${tid}`, SK: `M#${waTimestampIso}#${msgId}` }),
  messagePrefix: "M#",
  note: (cid: Id, tid: Id, createdAt: string, noteId: Id) => ({ PK: `C#${cid}#TK#${tid}`, SK: `NOTE#${createdAt}#${pad(noteId)}` }),
  /** Note id → location (ticketId, SK), for DELETE /ticket-notes/{id}. */
  noteRef: (cid: Id, noteId: Id) => ({ PK: `C#${cid}#NOTE#${pad(noteId)}`, SK: "#" }),
  ticketTag: (cid: Id, tid: Id, tagId: Id) => ({ PK: `C#${cid}#TK#${tid}`, SK: `TAG#${pad(tagId)}` }),
  /** SK prefix of the tag edges inside a ticket's partition (and of tags inside the company partition). */
  tagPrefix: "TAG#",
  /** Tag edge's GSI4 entry: the tickets of a tag, newest ticket (creation) first. `ticketCreatedAt` never changes. */
  tagTicketsIndex: (cid: Id, tagId: Id, ticketCreatedAt: string, tid: Id) => ({ GSI4PK: `C#${cid}#TAG#${tagId}`, GSI4SK: ticketEdgeSK(ticketCreatedAt, tid) }),
  tagTicketsPK: (cid: Id, tagId: Id) => `C#${cid}#TAG#${tagId}`,
  /**
   * Kanban lane entry (`shared/src/kanban`): one per lane an open or pending ticket stands in (lane 0 = "Em aberto",
   * else a kanban tag id), in the ticket's partition; newest ticket (creation) first on each of its indexes.
   */
  kanbanEntry: (cid: Id, tid: Id, lane: Id) => ({ PK: `C#${cid}#TK#${tid}`, SK: `KANBAN#${pad(lane)}` }),
  /** SK prefix of the kanban lane entries inside a ticket's partition. */
  kanbanEntryPrefix: "KANBAN#",
  /** A lane entry's indexes: GSI1 the whole lane, GSI2 the lane in one queue (`NONE`), GSI3 the lane of one assignee. */
  kanbanIndexes: (t: { companyId: Id; id: Id; queueId?: Id | null; userId?: Id | null; createdAt: string }, lane: Id) => {
    const sk = ticketEdgeSK(t.createdAt, t.id);
    return {
      GSI1PK: `C#${t.companyId}#KB#${lane}`,
      GSI1SK: sk,
      GSI2PK: `C#${t.companyId}#KB#${lane}#Q#${t.queueId ?? "NONE"}`,
      GSI2SK: sk,
      ...(t.userId != null ? { GSI3PK: `C#${t.companyId}#KB#${lane}#U#${t.userId}`, GSI3SK: sk } : {}),
    };
  },
  kanbanLanePK: (cid: Id, lane: Id) => `C#${cid}#KB#${lane}`,
  kanbanQueuePK: (cid: Id, lane: Id, qid: Id | null) => `C#${cid}#KB#${lane}#Q#${qid ?? "NONE"}`,
  kanbanUserPK: (cid: Id, lane: Id, uid: Id) => `C#${cid}#KB#${lane}#U#${uid}`,
  /** The company's kanban lane set the entries were written for (ids of the tags flagged kanban). */
  kanbanLanes: (cid: Id) => ({ PK: `C#${cid}`, SK: "KANBANLANES" }),
  /** Progress of the company's kanban lane backfill (`kanban/backfill.ts`): cursor, done; written done at company creation. */
  kanbanBackfill: (cid: Id) => ({ PK: `C#${cid}`, SK: "KANBANBACKFILL" }),
  /** WhatsApp message alias: dedupe, acks, edits, reactions, getMessage. */
  waMessage: (cid: Id, wid: Id, remoteJid: string, waId: string) => ({ PK: `C#${cid}#WAMSG#${wid}#${remoteJid}#${waId}`, SK: "#" }),
  /**
   * Message id (= WhatsApp id) → location, for /messages/{id} routes. One item per ticket holding that id (SK
   * `TK#<tid>`), so a colliding id from another chat never overwrites the first message's reference.
   */
  messageRef: (cid: Id, msgId: string, tid: Id) => ({ PK: `C#${cid}#MSG#${msgId}`, SK: `TK#${pad(tid)}` }),
  messageRefPK: (cid: Id, msgId: string) => `C#${cid}#MSG#${msgId}`,
  /**
   * A message's alias in its id's partition (`messageRefPK`): the dedupe key of a WhatsApp message (connection, chat
   * JID, id) and its location for the /messages/{id} routes in one item, which replaces `waMessage` + `messageRef`
   * for messages stored since the table's `messageAliasLayout`.
   */
  messageAlias: (cid: Id, msgId: string, wid: Id, remoteJid: string) => ({ PK: `C#${cid}#MSG#${msgId}`, SK: `WA#${wid}#${remoteJid}` }),
  /** When the table started storing `messageAlias` items (`since`, epoch ms; 0: born with them). */
  messageAliasLayout: () => ({ PK: "#LAYOUT", SK: "MESSAGEALIAS" }),
  /** One open/pending ticket per contact per connection. */
  activeTicket: (cid: Id, wid: Id, ctid: Id) => ({ PK: `C#${cid}#ACTIVE#${wid}#${ctid}`, SK: "#" }),

  // ---- search index (shared/src/search; docs/product/search.md) ----------------
  /**
   * Contact search gram: one item per distinct gram of a contact (name/email word prefixes of 3-8 characters, 4-digit
   * runs of the number). Sorted by normalized name so a page lists contacts alphabetically. Holds `contactId`.
   */
  searchGram: (cid: Id, gram: string, sortName: string, ctid: Id) => ({ PK: `C#${cid}#SG#${gram}`, SK: `N#${sortName}#${pad(ctid)}` }),
  searchGramPK: (cid: Id, gram: string) => `C#${cid}#SG#${gram}`,
  /** Message search word: one item per (word, ticket), newest ticket first; `n` counts the ticket's messages with it. */
  searchWord: (cid: Id, word: string, tid: Id) => ({ PK: `C#${cid}#SW#${word}`, SK: searchTicketSK(tid) }),
  searchWordPK: (cid: Id, word: string) => `C#${cid}#SW#${word}`,
  /**
   * Ticket search gram: the contact's grams (as `searchGram`) once per TICKET of the contact, newest ticket first, so a
   * ticket search by name or number is one Query of one partition, whatever the number of matching contacts. Holds
   * `ticketId`, `contactId` and the fields a query checks (`w` words, `d` digits).
   */
  searchTicketGram: (cid: Id, gram: string, tid: Id) => ({ PK: `C#${cid}#STG#${gram}`, SK: searchTicketSK(tid) }),
  /** The sort key of a ticket's item in a search word or ticket-gram partition: `T#<padded ticket id>`. */
  searchTicketSK: (tid: Id) => searchTicketSK(tid),
  searchTicketGramPK: (cid: Id, gram: string) => `C#${cid}#STG#${gram}`,
  /** Progress of the company's search-index backfill (`search/backfill.ts`): cursor, done, counts. */
  searchBackfill: (cid: Id) => ({ PK: `C#${cid}#SEARCHBACKFILL`, SK: "#" }),
  /** The invoice-timer backfill's end mark (`invoices/timer-backfill.ts`): `done` once every company was walked. */
  invoiceTimerBackfill: { PK: "INVTIMERBACKFILL", SK: "#" },

  // ---- realtime -----------------------------------------------------------
  wsConnection: (connectionId: string) => ({ PK: `WS#${connectionId}`, SK: "#" }),
  wsRoomMember: (cid: Id, room: string, connectionId: string) => ({ PK: `C#${cid}#ROOM#${room}`, SK: `WS#${connectionId}` }),
  wsRoomPK: (cid: Id, room: string) => `C#${cid}#ROOM#${room}`,
  /** Prefix of every room partition of a company. */
  wsRoomPrefix: (cid: Id) => `C#${cid}#ROOM#`,
  /**
   * The platform channel (docs/product/announcements.md#live): every socket's company-room member item is also in
   * GSI2 under `SOCKETS#<shard>` (shard of its connection id), so a platform-wide frame lists every socket with one
   * Query per shard, never a loop over companies.
   */
  wsPlatformIndex: (connectionId: string) => ({ GSI2PK: `SOCKETS#${shardOfName(connectionId, WS_PLATFORM_SHARDS)}`, GSI2SK: connectionId }),
  wsPlatformPK: (shard: number) => `SOCKETS#${shard}`,
  /** The company id of a room member item's PK (`C#<cid>#ROOM#<room>`), or undefined. */
  companyOfRoomPK: (pk: string): number | undefined => Number(/^C#(\d+)#ROOM#/.exec(pk)?.[1]) || undefined,

  // ---- push notifications ----------------------------------------------------
  /**
   * A device's Web Push subscription (docs/product/push.md), in the company partition: one per user and endpoint
   * (`hash` = SHA-256 of the endpoint, base64url). Also in GSI1 `PUSHSUBS#<shard>` so a new announcement reaches the
   * subscribed devices of every company with one Query per shard, never a loop over companies.
   */
  pushSubscription: (cid: Id, uid: Id, hash: string) => ({ PK: `C#${cid}`, SK: `PUSHSUB#${pad(uid)}#${hash}` }),
  pushSubscriptionPrefix: "PUSHSUB#",
  pushUserPrefix: (uid: Id) => `PUSHSUB#${pad(uid)}#`,
  pushPlatformIndex: (cid: Id, uid: Id, hash: string) => ({ GSI1PK: `PUSHSUBS#${shardOfName(hash, PUSH_PLATFORM_SHARDS)}`, GSI1SK: `${pad(cid)}#${pad(uid)}#${hash}` }),
  pushPlatformPK: (shard: number) => `PUSHSUBS#${shard}`,

  // ---- runtime --------------------------------------------------------------
  /**
   * Daily counters: the company's day (its attendants' counters are attributes of it, `db/counters.ts` `userCounter`),
   * or, with `uid`, one user's day item of the former layout (no longer written; read so older days stay counted).
   * `day` is `yyyy-mm-dd` in the company's time zone (`events/outbox.ts`).
   */
  stats: (cid: Id, day: string, uid?: Id | null) => ({ PK: `C#${cid}#STATS`, SK: uid != null ? `D#${day}#U#${uid}` : `D#${day}` }),
  statsPK: (cid: Id) => `C#${cid}#STATS`,
  /** Attribute of a company's day item holding attendant `uid`'s `counter` (`db/counters.ts` `userCounter`), and their prefix. */
  statsUserAttr: (uid: Id, counter: string) => `U#${uid}#${counter}`,
  statsUserAttrPrefix: "U#",
  /** SK of a company's day item (`statsDayPrefix(day)` + `#U#` starts its users' items of that day). */
  statsDaySK: (day: string) => `D#${day}`,
  /**
   * A deleted ticket's day counts of customers' messages it could not hand over itself (their hand-over items were
   * written under another time zone's day end), read by those items' apply (`events/outbox.ts` `handOverOnDelete`).
   */
  ticketInDaysLeft: (cid: Id, tid: Id) => ({ PK: `C#${cid}#STATS`, SK: `MI#${tid}` }),
  /**
   * A company's sealed month roll-up (`month` `yyyy-mm`, of its local days): the month's sums of its day items'
   * counters, company and per attendant (the day items' attribute names, `messagesIn` resolved per day), with
   * `builtRev` (the `rev` it was built at) and `rev` (bumped by every late fact written to a day of the month once it
   * is nearly sealed). Built by the dashboard's read (`dashboard/repository.ts`), invalidated by the counters' writers
   * (`db/counters.ts` `rollupInvalidations`; docs/product/dashboard.md#roll-ups). `M#` sorts after every day
   * item (`D#`) and before the `MI#` items (`#` < `I`), so a range `M#<a>`..`M#<b>` holds month items only.
   */
  statsMonth: (cid: Id, month: string) => ({ PK: `C#${cid}#STATS`, SK: `M#${month}` }),
  /**
   * A company's sealed week roll-up (`monday` `yyyy-mm-dd`, the first local day of its Monday–Sunday week): the week's
   * sums of its day items' counters, held and invalidated as a month's ({@link keys.statsMonth}; `db/counters.ts`
   * `rollupInvalidations`; docs/product/dashboard.md#roll-ups). `W#` sorts after every other SK of the
   * partition (`D#`, `M#`, `MI#`, `NOW`: `W` > `N` > `M` > `D`), so a range `W#<a>`..`W#<b>` holds week items only,
   * and neither the days' range `D#<a>`..`D#<b>#\uffff` nor the months' `M#<a>`..`M#<b>` reaches it.
   */
  statsWeek: (cid: Id, monday: string) => ({ PK: `C#${cid}#STATS`, SK: `W#${monday}` }),
  /** The company's current counts (tickets open and pending now), beside its day items (docs/product/dashboard.md). */
  statsNow: (cid: Id) => ({ PK: `C#${cid}#STATS`, SK: "NOW" }),
  /**
   * The tickets screen's tab counts (docs/product/tickets.md#tab-counts): one item per queue (`Q#<qid or NONE>`) and per
   * user (`U#<uid>`), each holding `open`, `pending`, `groupOpen`, `groupPending` (tickets in that state now).
   */
  ticketCount: (cid: Id, sk: string) => ({ PK: `C#${cid}#TCOUNT`, SK: sk }),
  ticketCountPK: (cid: Id) => `C#${cid}#TCOUNT`,
  ticketCountQueueSK: (qid: Id | null) => `Q#${qid ?? "NONE"}`,
  ticketCountUserSK: (uid: Id) => `U#${uid}`,
  ticketCountQueuePrefix: "Q#",
  /** Progress of a company's tab-count backfill (`tickets/counts-backfill.ts`: cursor, done; written done at company creation). */
  ticketCountsBackfill: (cid: Id) => ({ PK: `C#${cid}#TCOUNTFILL`, SK: "#" }),
  /** The platform's counts for super users: companies created, connections whose session is connected (a set). */
  platformStats: { PK: "STATS", SK: "PLATFORM" },
  /**
   * A finished service cycle of a ticket (queued, accepted, finished, rated), in the ticket's partition `CYCLE#<finishedAt>`;
   * GSI1 lists a company's cycles by month of finish, GSI3 one user's (docs/product/dashboard.md#service-cycles).
   */
  ticketCycle: (cid: Id, tid: Id, finishedAt: string) => ({ PK: `C#${cid}#TK#${tid}`, SK: `CYCLE#${finishedAt}` }),
  ticketCyclePrefix: "CYCLE#",
  ticketCycleIndex: (cid: Id, tid: Id, finishedAt: string, uid: Id | null) => ({
    GSI1PK: `C#${cid}#CYCLES#${finishedAt.slice(0, 7)}`,
    GSI1SK: `${finishedAt}#${pad(tid)}`,
    ...(uid != null ? { GSI3PK: `C#${cid}#CYCLES#U#${uid}#${finishedAt.slice(0, 7)}`, GSI3SK: `${finishedAt}#${pad(tid)}` } : {}),
  }),
  /**
   * A finished cycle's report entries (docs/product/reports.md#keys): one per filter dimension it has (queue `Q`,
   * connection `W`, contact `CT`, tag `TG`, rate `R`), in the company's partition of that value and UTC month of
   * finish (a contact's partition has no month: its cycles are few), sorted by finish time and ticket.
   */
  reportEntryPK: (cid: Id, dim: "Q" | "W" | "CT" | "TG" | "R", value: Id, month: string | null) => `C#${cid}#RPT#${dim}#${value}${month ? `#${month}` : ""}`,
  reportEntry: (pk: string, finishedAt: string, tid: Id) => ({ PK: pk, SK: `${finishedAt}#${pad(tid)}` }),
  /** The report entries' backfill progress of a company (cycles stored before the entries existed). */
  reportBackfill: (cid: Id) => ({ PK: `C#${cid}#RPTBACKFILL`, SK: "#" }),
  /**
   * Event outbox item (shared/src/events/README.md, `events/outbox.ts`): written in the domain write's transaction,
   * deleted by the transaction that applies it. The item IS its due-time entry (no index): the partition is its shard
   * and due hour, `OUTBOX#<shard>#<yyyy-mm-ddThh>`, the sort key `<dueAt ISO>#<cid>#<oid>`. `oid` is deterministic
   * per fact (e.g. `M#<ticketId>#<messageId>`, `T#<ticketId>#v<version>`).
   */
  outbox: (shard: number, dueAt: string, cid: Id, oid: string) => ({ PK: `OUTBOX#${shard}#${dueAt.slice(0, 13)}`, SK: `${dueAt}#${cid}#${oid}` }),
  /** Outbox ids, deterministic per counted fact (a replay of the same fact finds the same item). */
  outboxId: {
    message: (tid: Id, msgId: string) => `M#${tid}#${msgId}`,
    ticket: (tid: Id, version: number | "deleted") => `T#${tid}#v${version}`,
    /** A ticket counted by the tab-count backfill at `version` (`tickets/counts-backfill.ts`). */
    ticketTally: (tid: Id, version: number) => `T#${tid}#c${version}`,
    rating: (tid: Id, ratingAt: string) => `R#${tid}#${ratingAt}`,
    contact: (ctid: Id) => `CT#${ctid}`,
    contactDeleted: (ctid: Id) => `CT#${ctid}#deleted`,
    /** A ticket's customers' messages of one local day and attendant (`inKey`: `<day>[#U#<uid>]`), handed over at the day's end. */
    messagesInDay: (tid: Id, inKey: string) => `MI#${tid}#${inKey}`,
  },
  /** One due hour of one outbox shard (`hour`: `yyyy-mm-ddThh`), read by the minute tick. */
  outboxDuePK: (shard: number, hour: string) => `OUTBOX#${shard}#${hour}`,
  /** The tick's walk position: one attribute per shard, the due time (ISO) up to which it is drained. */
  outboxCursor: { PK: "OUTBOX#CURSOR", SK: "#" },
  /**
   * A durable listener's pending run of one event (`events/durable.ts`): written when the event is dispatched, deleted
   * once the listener applied it. Partition per shard (it holds only pending runs), sort `<dueAt ISO>#<cid>#<runId>`.
   */
  listenerRun: (shard: number, dueAt: string, cid: Id, runId: string) => ({ PK: `LRUN#${shard}`, SK: `${dueAt}#${cid}#${runId}` }),
  /** One shard of the durable listeners' pending runs, read by the minute tick up to now. */
  listenerRunPK: (shard: number) => `LRUN#${shard}`,
  /**
   * The fact a pending run is keyed by (`events/durable.ts` `factOf`): a ticket at a version, or a connection, contact,
   * queue, user or tag at an `updatedAt` (each of their writes moves it).
   */
  listenerFact: (kind: "ticket" | "whatsapp" | "contact" | "queue" | "user" | "tag" | "message", id: Id, at: string | number) =>
    kind === "ticket" ? `T#${id}#v${at}` : `${{ whatsapp: "W", contact: "CT", queue: "Q", user: "U", tag: "TG", message: "M" }[kind]}#${id}#${at}`,
  waCreds: (wid: Id) => ({ PK: `WA#${wid}`, SK: "CREDS" }),
  waKey: (wid: Id, type: string, id: string) => ({ PK: `WA#${wid}`, SK: `K#${type}#${id}` }),
  waPartition: (wid: Id) => `WA#${wid}`,
  lease: (shard: number) => ({ PK: `LEASE#SHARD#${shard}`, SK: "#" }),
  /** A live session-runner task (tasks share the shards fairly); `aliveUntil` says until when. */
  runnerPresence: (owner: string) => ({ PK: "RUNNERS", SK: `R#${owner}` }),
  runnerPresencePK: "RUNNERS",
  /** Session command state (idempotency: PROCESSING → DONE). */
  command: (commandId: string) => ({ PK: `CMD#${commandId}`, SK: "#" }),

  // ---- timers (docs/product/timers.md; shared/src/timers) -------------------------------
  /** One timer per (company, kind, ref): schedule = Put (replaces), cancel = Delete. Holds `dueAt`, `data`. */
  timer: (cid: Id, kind: string, ref: Id) => ({ PK: `C#${cid}#TIMER#${kind}#${ref}`, SK: "#" }),
  /** GSI1 due-time index of timers, per shard: `TIMER#<shard>` / `<dueAt ISO>#<cid>#<kind>#<ref>` (the tick reads `<= now`). */
  timerDueIndex: (shard: number, dueAt: string, cid: Id, kind: string, ref: Id) => ({ GSI1PK: `TIMER#${shard}`, GSI1SK: `${dueAt}#${cid}#${kind}#${ref}` }),
  timerDuePK: (shard: number) => `TIMER#${shard}`,
  /** A customer's rating of one attendance (ticket cycle), in the ticket's partition: `RATING#<ratingAt>` (docs/product/ratings.md). */
  ticketRating: (cid: Id, tid: Id, ratingAt: string) => ({ PK: `C#${cid}#TK#${tid}`, SK: `RATING#${ratingAt}` }),
  ticketRatingPrefix: "RATING#",

  // ---- delivery safety (no inbound message dropped, no outbound one lost or sent twice) ----
  /** An inbound message whose ingest kept failing, parked for a later re-drive (raw WAMessage kept). */
  inboundParked: (cid: Id, wid: Id, waId: string) => ({ PK: `C#${cid}#INPARK#${wid}`, SK: `P#${waId}` }),
  /** GSI4 due-time index of parked inbound messages, per session shard: `<dueAt>#<cid>#<wid>#<waId>`. */
  inboundParkedDue: (shard: number, dueAtIso: string, cid: Id, wid: Id, waId: string) => ({
    GSI4PK: `INPARK#SHARD#${shard}`,
    GSI4SK: `${dueAtIso}#${cid}#${pad(wid)}#${waId}`,
  }),
  inboundParkedDuePK: (shard: number) => `INPARK#SHARD#${shard}`,
  /** GSI4 listing of inbound payloads that can never be stored (kept raw for inspection). */
  inboundDead: (atIso: string, cid: Id, wid: Id, ref: string) => ({ GSI4PK: "INDEAD", GSI4SK: `${atIso}#${cid}#${pad(wid)}#${ref}` }),
  /** The kept raw payload itself (outside the company's `C#<cid>#` keys: operations data, never shown in the inbox). */
  inboundDeadItem: (cid: Id, wid: Id, id: string) => ({ PK: `INDEAD#C#${cid}#${wid}`, SK: id }),
  /**
   * GSI4 due-time index of outbound messages waiting at ack 0, per shard: `OUTDUE#<shard>` / `<dueAt>#<cid>#<ticketId>#<msgId>`
   * (the tick reads `<= now` of each shard; a settled message's item is deleted, so only due work is read).
   */
  outboundDue: (shard: number, dueAtIso: string, cid: Id, tid: Id, msgId: string) => ({
    GSI4PK: outboundDuePK(shard),
    GSI4SK: `${dueAtIso}#${cid}#${pad(tid)}#${msgId}`,
  }),
  outboundDuePK,
  /** The outbound-pending marker of a message (exists while the message waits at ack 0). */
  outboundPending: (cid: Id, tid: Id, msgId: string) => ({ PK: `C#${cid}#OUTPEND#${pad(tid)}`, SK: `M#${msgId}` }),

  // ---- public messages API (docs/product/messages-api.md) ----------------------------------------
  /** A connection token's request counter in one rate window (`windowStart` epoch seconds), TTL'd. */
  apiRate: (tokenHash: string, windowStart: number) => ({ PK: `APIRATE#${tokenHash}#${windowStart}`, SK: "#" }),
  /** The first answer of a send with an `Idempotency-Key`, per connection; TTL'd. */
  apiIdempotency: (cid: Id, wid: Id, key: string) => ({ PK: `C#${cid}#APIIDEM#${pad(wid)}#${key}`, SK: "#" }),

  // ---- personal data (docs/product/personal-data.md) --------------------------------------------
  /** One audit entry of the company (who exported or erased a contact's data, when): `AUDIT#<at>#<id>`. */
  auditEntry: (cid: Id, at: string, id: string) => ({ PK: `C#${cid}#AUDIT`, SK: `AUDIT#${at}#${id}` }),
  auditPK: (cid: Id) => `C#${cid}#AUDIT`,
  auditPrefix: "AUDIT#",
} as const;

/** Partition-key attributes a cursor (a LastEvaluatedKey a client sends back) may carry. */
const PARTITION_ATTRS = ["PK", "GSI1PK", "GSI2PK", "GSI3PK", "GSI4PK"] as const;

/**
 * The ownership check of every paged route's cursor: true when `key` is a key object whose `PK` and every
 * GSI partition key it carries name a partition of company `cid` (`C#<cid>` or `C#<cid>#…`), and, when given, whose
 * attributes equal `opts.equal` (e.g. `{GSI2PK: <the index partition this query reads>}`) and whose `PK` starts with
 * `opts.pkPrefix` (e.g. {@link keys.ticketPartitionPrefix}). Callers answer 400 `ERR_INVALID_CURSOR` when it is false.
 */
export function belongsToCompany(
  key: unknown,
  cid: Id,
  opts: { equal?: Record<string, string>; pkPrefix?: string } = {},
): key is Record<string, unknown> {
  if (!key || typeof key !== "object" || Array.isArray(key)) return false;
  const k = key as Record<string, unknown>;
  if (typeof k.PK !== "string") return false;
  const own = keys.companyPartition(cid);
  for (const attr of PARTITION_ATTRS) {
    const v = k[attr];
    if (v === undefined) continue;
    if (typeof v !== "string" || (v !== own && !v.startsWith(`${own}#`))) return false;
  }
  if (opts.pkPrefix !== undefined && !k.PK.startsWith(opts.pkPrefix)) return false;
  return Object.entries(opts.equal ?? {}).every(([attr, v]) => k[attr] === v);
}
