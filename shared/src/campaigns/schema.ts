/**
 * Campaigns (docs/product/campaigns.md): a message sent to every valid number of an audience (a contact list or the
 * contacts of a tag) through one connection, paced per connection. Three blocks:
 *
 * 1. the stored items (campaign, shipping, connection pacer, settings),
 * 2. request schemas (bodies, queries, path params, the dispatch queue's message): the edge parses every input with these,
 * 3. response and realtime shapes (what the API answers and what `company-{id}-campaign` carries).
 */
import { z } from "zod";
import { zId, zIso, zPageNumber } from "../common.ts";
import { defineAttachmentKind } from "../media/kinds.ts";
import { attachedMedia } from "../media/schema.ts";

/** Campaigns per page of `GET /api/campaigns/`. */
export const CAMPAIGNS_PAGE_SIZE = 20;
/** Shippings per page of the report. */
export const SHIPPINGS_PAGE_SIZE = 50;
/** A campaign is editable while PROGRAMADA only when `scheduledAt` is more than this far ahead. */
export const EDITABLE_AHEAD_MS = 3600_000;

/** INATIVA (default: no date), PROGRAMADA (waiting for `scheduledAt`), EM_ANDAMENTO, CANCELADA, FINALIZADA. */
export const CAMPAIGN_STATUSES = ["INATIVA", "PROGRAMADA", "EM_ANDAMENTO", "CANCELADA", "FINALIZADA"] as const;
export const CampaignStatus = z.enum(CAMPAIGN_STATUSES);
export type CampaignStatus = z.infer<typeof CampaignStatus>;

/** The message variants of a campaign (`message1`..`message5`) and of its confirmation. */
export const MESSAGE_FIELDS = ["message1", "message2", "message3", "message4", "message5"] as const;
export const CONFIRMATION_FIELDS = ["confirmationMessage1", "confirmationMessage2", "confirmationMessage3", "confirmationMessage4", "confirmationMessage5"] as const;

/** A campaign's media (sent first, the message as its caption): any type within the outbound limit of its type. */
export const CAMPAIGN_MEDIA = defineAttachmentKind({ folder: "campaigns" });

/**
 * Why a campaign does not send now. `ERR_CAMPAIGN_CONNECTION_DOWN` (its connection is not connected: shippings wait
 * and it resumes by itself), `ERR_CAMPAIGN_FAILURE_RATE` and `ERR_CAMPAIGN_BLOCKS` (the automatic pause: the campaign
 * is CANCELADA until an admin restarts it).
 */
export const PAUSE_REASONS = ["ERR_CAMPAIGN_CONNECTION_DOWN", "ERR_CAMPAIGN_FAILURE_RATE", "ERR_CAMPAIGN_BLOCKS"] as const;
export const PauseReason = z.enum(PAUSE_REASONS);
export type PauseReason = z.infer<typeof PauseReason>;

// ---------------------------------------------------------------------------------------------
// 1. Stored items

const text = z.string().nullable().default(null);

/**
 * Campaign item `C#<cid>` / `CAMPAIGN#<id>` (`keys.campaign`). The spec's fields, plus the engine's: `pauseReason`
 * (with `pausedAt`), the counts (`valid` shippings of the audience, `delivered`, `failed`, `awaiting` a confirmation
 * reply, `blocked`), `audienceReady` (every shipping written), `lowWater` (every shipping below that sequence is
 * done), `runs` (bumped at each start and restart).
 */
export const CampaignItem = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  message1: text,
  message2: text,
  message3: text,
  message4: text,
  message5: text,
  confirmationMessage1: text,
  confirmationMessage2: text,
  confirmationMessage3: text,
  confirmationMessage4: text,
  confirmationMessage5: text,
  status: CampaignStatus,
  confirmation: z.boolean().default(false),
  scheduledAt: z.string().nullable().default(null),
  completedAt: z.string().nullable().default(null),
  whatsappId: z.number().int().nullable().default(null),
  contactListId: z.number().int().nullable().default(null),
  tagListId: z.number().int().nullable().default(null),
  fileListId: z.number().int().nullable().default(null),
  closeTicketOnReply: z.boolean().default(false),
  ...attachedMedia,
  pauseReason: PauseReason.nullable().default(null),
  pausedAt: z.string().nullable().default(null),
  valid: z.number().int().default(0),
  delivered: z.number().int().default(0),
  failed: z.number().int().default(0),
  awaiting: z.number().int().default(0),
  blocked: z.number().int().default(0),
  audienceReady: z.boolean().default(false),
  lowWater: z.number().int().default(1),
  runs: z.number().int().default(0),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CampaignItem = z.infer<typeof CampaignItem>;

/**
 * pending (to plan), queued (a send time taken from the connection's pacer, on the dispatch queue), awaiting (the
 * confirmation went out; waiting for the contact's reply), delivered (the message went out), failed.
 */
export const SHIPPING_STATUSES = ["pending", "queued", "awaiting", "delivered", "failed"] as const;
export const ShippingStatus = z.enum(SHIPPING_STATUSES);
export type ShippingStatus = z.infer<typeof ShippingStatus>;

/**
 * Shipping item `C#<cid>#CAMP#<campaignId>` / `SHIP#<seq>` (`keys.campaignShipping`): one per (campaign, number),
 * kept unique by the member marker `NUM#<digits>`. `messageIds` are the WhatsApp ids reserved for the step in
 * progress (`step`), so a second delivery finds its messages instead of sending again; `run` the campaign run that
 * queued it.
 */
export const ShippingItem = z.object({
  companyId: z.number().int(),
  campaignId: z.number().int(),
  seq: z.number().int(),
  number: z.string(),
  name: z.string(),
  email: z.string().default(""),
  contactId: z.number().int().nullable().default(null),
  status: ShippingStatus,
  dueAt: z.string().nullable().default(null),
  run: z.number().int().default(0),
  step: z.enum(["confirmation", "message"]).nullable().default(null),
  messageIds: z.array(z.string()).nullable().default(null),
  message: z.string().nullable().default(null),
  confirmationMessage: z.string().nullable().default(null),
  confirmationRequestedAt: z.string().nullable().default(null),
  confirmedAt: z.string().nullable().default(null),
  deliveredAt: z.string().nullable().default(null),
  /** The customer's message that confirmed the shipping (its reply to the confirmation). */
  repliedBy: z.string().nullable().default(null),
  /** The customer's reply whose ticket was closed at once (a campaign that closes replies): closed once. */
  closedBy: z.string().nullable().default(null),
  error: z.string().nullable().default(null),
  updatedAt: z.string(),
});
export type ShippingItem = z.infer<typeof ShippingItem>;

/** A connection's pacing state (`keys.campaignPacer`): see `./pacing.ts`. */
export const PacerState = z.object({
  lastAt: z.number().nullable().default(null),
  sent: z.number().int().default(0),
  day: z.string().default(""),
  dayCount: z.number().int().default(0),
  version: z.number().int().default(0),
});
export type PacerState = z.infer<typeof PacerState>;

/** messageInterval options (seconds). */
export const MESSAGE_INTERVALS = [0, 5, 10, 15, 20] as const;
/** longerIntervalAfter (sends) and greaterInterval (seconds) options. */
export const LONGER_OPTIONS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;

const oneOf = (opts: readonly number[]) => z.coerce.number().refine((v) => opts.includes(v), `One of ${opts.join(", ")}`);

/** A custom variable `{key}` of the campaign messages. */
export const CampaignVariable = z.object({
  key: z
    .string()
    .trim()
    .min(1, "Obrigatório")
    .max(40)
    .regex(/^[\p{L}\p{N}_-]+$/u, "Invalid input")
    .refine((k) => !["nome", "email", "numero"].includes(k.toLowerCase()), "Reserved"),
  value: z.string().max(1000),
});

/** The campaign settings (defaults 20 / 20 / 60, no variables); each key stored as its own row with a JSON value. */
export const CampaignSettings = z.object({
  messageInterval: oneOf(MESSAGE_INTERVALS).default(20),
  longerIntervalAfter: oneOf(LONGER_OPTIONS).default(20),
  greaterInterval: oneOf(LONGER_OPTIONS).default(60),
  variables: z
    .array(CampaignVariable)
    .max(100)
    .default([])
    .refine((vs) => new Set(vs.map((v) => v.key)).size === vs.length, "Duplicate key"),
});
export type CampaignSettings = z.infer<typeof CampaignSettings>;
export const DEFAULT_CAMPAIGN_SETTINGS: CampaignSettings = { messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60, variables: [] };

// ---------------------------------------------------------------------------------------------
// 2. Requests

/** An empty string is null (the dialog sends empty fields as null). */
const emptyNull = <T extends z.ZodType>(s: T) => z.preprocess((v) => (v === "" ? null : v), s.nullish());
const message = emptyNull(z.string().max(4096));

/** name 2-50 (required), five variants, five confirmation variants, the audience, the connection, the date. */
const campaignFields = {
  name: z.string({ error: "Required" }).trim().min(2, "Too Short!").max(50, "Too Long!"),
  message1: message,
  message2: message,
  message3: message,
  message4: message,
  message5: message,
  confirmationMessage1: message,
  confirmationMessage2: message,
  confirmationMessage3: message,
  confirmationMessage4: message,
  confirmationMessage5: message,
  confirmation: z.boolean().optional(),
  scheduledAt: emptyNull(z.string().max(40).pipe(zIso).transform((v) => new Date(v).toISOString())),
  whatsappId: emptyNull(zId),
  contactListId: emptyNull(zId),
  tagListId: emptyNull(zId),
  fileListId: emptyNull(zId),
  closeTicketOnReply: z.boolean().optional(),
};

/** `POST /api/campaigns`. `status`, `companyId` and the engine's fields in the body are ignored. */
export const CreateCampaignBody = z.object(campaignFields);
export type CreateCampaignBody = z.infer<typeof CreateCampaignBody>;
/** `PUT /api/campaigns/{id}`: the dialog's fields (absent = unchanged). */
export const UpdateCampaignBody = z.object({ ...campaignFields, name: campaignFields.name.optional() });
export type UpdateCampaignBody = z.infer<typeof UpdateCampaignBody>;

export const ListCampaignsQuery = z.object({ searchParam: z.string().max(100).optional(), pageNumber: zPageNumber });
export type ListCampaignsQuery = z.infer<typeof ListCampaignsQuery>;
export const CampaignIdParams = z.object({ id: zId });
export const ShippingsQuery = z.object({ pageNumber: zPageNumber });

/** `POST /api/campaign-settings`: `{settings}`. */
export const SaveCampaignSettingsBody = z.object({ settings: CampaignSettings });

/** A message of the dispatch queue asking for one shipping's send (the campaign's planner puts it there). */
export const CampaignDispatchMessage = z.object({ kind: z.literal("campaign"), companyId: zId, campaignId: zId, seq: zId, run: z.number().int() });
export type CampaignDispatchMessage = z.infer<typeof CampaignDispatchMessage>;

// ---------------------------------------------------------------------------------------------
// 3. Responses and realtime

/** A campaign as every route answers it, with `editable` (the dialog is read-only otherwise). */
export const Campaign = CampaignItem.omit({ lowWater: true, audienceReady: true, runs: true }).extend({ editable: z.boolean() });
export type Campaign = z.infer<typeof Campaign>;

export const CampaignsPage = z.object({ records: z.array(Campaign), count: z.number().int(), hasMore: z.boolean() });
export type CampaignsPage = z.infer<typeof CampaignsPage>;

/** One row of the report: a shipping as the admin sees it. */
export const Shipping = ShippingItem.omit({ messageIds: true, run: true, companyId: true });
export type Shipping = z.infer<typeof Shipping>;
export const ShippingsPage = z.object({ records: z.array(Shipping), hasMore: z.boolean() });

export const CampaignDeleted = z.object({ message: z.string() });

/** `company-{id}-campaign` frames: `{action: "create"|"update", record}` or `{action: "delete", id}`. */
export const CampaignFrame = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), record: Campaign }),
  z.object({ action: z.literal("update"), record: Campaign }),
  z.object({ action: z.literal("delete"), id: z.number().int() }),
]);
export type CampaignFrame = z.infer<typeof CampaignFrame>;
