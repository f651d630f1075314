/**
 * Campaign rules (docs/product/campaigns.md). Admins only (the routes' `admin` level), behind the plan flag
 * `useCampaigns`.
 *
 * - Status: INATIVA without `scheduledAt`, PROGRAMADA with it (the planner starts it at that time: EM_ANDAMENTO).
 *   `cancel` only while EM_ANDAMENTO (→ CANCELADA), `restart` only while CANCELADA (→ EM_ANDAMENTO); FINALIZADA with
 *   `completedAt` when every valid number was delivered or failed.
 * - Editable when INATIVA, or PROGRAMADA with `scheduledAt` more than an hour ahead; a CANCELADA one may still be saved
 *   (its messages change, its status stays). Otherwise 409 `ERR_CAMPAIGN_NOT_EDITABLE`.
 * - A scheduled campaign needs a connection of the company, an audience (contact list or tag of the company) and at
 *   least one non-empty message (400 `ERR_CAMPAIGN_INCOMPLETE`).
 * - Every change dispatches `campaign.created|updated|deleted` (`./events.ts`).
 */
import type { AuthContext } from "../auth/tokens.ts";
import { nowIso } from "../common.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import { dropAttachments, replaceAttachment, type Upload } from "../media/attachments.ts";
import { NO_MEDIA } from "../media/schema.ts";
import { getTag } from "../tags/repository.ts";
import { cancelTimer, scheduleTimer } from "../timers/index.ts";
import { getWhatsappItem } from "../whatsapp/repository.ts";
import { contactListExists } from "./audience.ts";
import "./errors.ts";
import "./events.ts";
import { CAMPAIGN_TIMER } from "./kinds.ts";
import {
  deleteCampaignItem,
  deleteShippings,
  getCampaign,
  getCampaignSettings,
  listCampaigns,
  patchCampaign,
  putNewCampaign,
  saveCampaignSettings,
  shippingsPage,
} from "./repository.ts";
import {
  CAMPAIGN_MEDIA,
  CAMPAIGNS_PAGE_SIZE,
  EDITABLE_AHEAD_MS,
  MESSAGE_FIELDS,
  SHIPPINGS_PAGE_SIZE,
  type Campaign,
  CampaignItem,
  type CampaignSettings,
  type CampaignsPage,
  type CreateCampaignBody,
  type ListCampaignsQuery,
  type Shipping,
  type UpdateCampaignBody,
} from "./schema.ts";

/** True when the dialog may change the campaign at `now` (epoch ms): INATIVA, or PROGRAMADA more than an hour ahead. */
export function isEditable(c: Pick<CampaignItem, "status" | "scheduledAt">, now = Date.now()): boolean {
  return c.status === "INATIVA" || (c.status === "PROGRAMADA" && !!c.scheduledAt && Date.parse(c.scheduledAt) - now > EDITABLE_AHEAD_MS);
}

/** A campaign as the API answers it. */
export function campaignView(c: CampaignItem): Campaign {
  const { lowWater: _l, audienceReady: _a, runs: _r, ...rest } = c;
  return { ...rest, editable: isEditable(c) };
}

/** Dispatches `campaign.updated` with the campaign as it is now. */
export async function emitCampaign(c: CampaignItem): Promise<void> {
  await dispatch({ type: "campaign.updated", companyId: c.companyId, record: campaignView(c) });
}

async function requireCampaign(auth: AuthContext, id: number): Promise<CampaignItem> {
  const c = await getCampaign(auth.companyId, id);
  if (!c) throw new AppError("ERR_NO_CAMPAIGN_FOUND");
  return c;
}

const invalid = (path: string) => new AppError("ERR_VALIDATION", { fields: [{ path, message: "Invalid input" }] });

/** Checks the references belong to the caller's company and a scheduled campaign is complete; 400 otherwise. */
async function checkReferences(companyId: number, c: CampaignItem): Promise<void> {
  if (c.whatsappId != null && !(await getWhatsappItem(companyId, c.whatsappId))) throw invalid("whatsappId");
  if (c.tagListId != null && !(await getTag(companyId, c.tagListId))) throw invalid("tagListId");
  if (c.contactListId != null && !(await contactListExists(companyId, c.contactListId))) throw invalid("contactListId");
  if (c.contactListId != null && c.tagListId != null) throw invalid("tagListId");
  if (c.scheduledAt) {
    const hasMessage = MESSAGE_FIELDS.some((f) => c[f]?.trim());
    if (c.whatsappId == null || (c.contactListId == null && c.tagListId == null) || !hasMessage) throw new AppError("ERR_CAMPAIGN_INCOMPLETE");
  }
}

/** The stored fields a body sets (absent = unchanged). */
function fieldsOf(body: UpdateCampaignBody): Partial<CampaignItem> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (v !== undefined) out[k] = v;
  return out as Partial<CampaignItem>;
}

/** Puts the planner's timer at `scheduledAt` for a PROGRAMADA campaign; removes it otherwise. */
async function followSchedule(c: CampaignItem): Promise<void> {
  if (c.status === "PROGRAMADA" && c.scheduledAt) await scheduleTimer(c.companyId, CAMPAIGN_TIMER, c.id, c.scheduledAt);
  else if (c.status === "INATIVA") await cancelTimer(c.companyId, CAMPAIGN_TIMER, c.id);
}

/** `GET /api/campaigns/`: one page, newest first → `{records, count, hasMore}`; `searchParam` matches the name. */
export async function listCampaignsFor(auth: AuthContext, q: ListCampaignsQuery): Promise<CampaignsPage> {
  let items = await listCampaigns(auth.companyId);
  const term = (q.searchParam ?? "").trim().toLowerCase();
  if (term) items = items.filter((c) => c.name.toLowerCase().includes(term));
  items.sort((a, b) => b.id - a.id);
  const from = (q.pageNumber - 1) * CAMPAIGNS_PAGE_SIZE;
  const page = items.slice(from, from + CAMPAIGNS_PAGE_SIZE);
  return { records: page.map(campaignView), count: items.length, hasMore: from + page.length < items.length };
}

/** `GET /api/campaigns/{id}`: 404 `ERR_NO_CAMPAIGN_FOUND` for another company's. */
export async function showCampaign(auth: AuthContext, id: number): Promise<Campaign> {
  return campaignView(await requireCampaign(auth, id));
}

/** `GET /api/campaigns/{id}/shippings`: one page of the report's rows, in audience order. */
export async function listShippings(auth: AuthContext, id: number, pageNumber: number): Promise<{ records: Shipping[]; hasMore: boolean }> {
  await requireCampaign(auth, id);
  const page = await shippingsPage(auth.companyId, id, pageNumber, SHIPPINGS_PAGE_SIZE);
  return { records: page.records.map(({ messageIds: _m, run: _r, companyId: _c, ...s }) => s), hasMore: page.hasMore };
}

/** `POST /api/campaigns`: INATIVA, or PROGRAMADA with `scheduledAt` (planned for that time). */
export async function createCampaign(auth: AuthContext, body: CreateCampaignBody): Promise<Campaign> {
  const now = nowIso();
  const draft = {
    ...fieldsOf(body),
    id: 0,
    companyId: auth.companyId,
    status: body.scheduledAt ? "PROGRAMADA" : "INATIVA",
    createdAt: now,
    updatedAt: now,
  };
  const item = CampaignItem.parse(draft);
  await checkReferences(auth.companyId, item);
  item.id = await nextId(auth.companyId, "campaign");
  await putNewCampaign(item);
  await followSchedule(item);
  const record = campaignView(item);
  await dispatch({ type: "campaign.created", companyId: auth.companyId, record });
  return record;
}

/**
 * `PUT /api/campaigns/{id}`: the dialog's fields on an editable campaign (status follows `scheduledAt`), or on a
 * CANCELADA one (status kept). 409 `ERR_CAMPAIGN_NOT_EDITABLE` otherwise; 409 `ERR_CONFLICT` when it changed meanwhile.
 */
export async function updateCampaign(auth: AuthContext, id: number, body: UpdateCampaignBody): Promise<Campaign> {
  const before = await requireCampaign(auth, id);
  const canceled = before.status === "CANCELADA";
  if (!isEditable(before) && !canceled) throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE");
  const fields = fieldsOf(body);
  if (canceled) {
    // A cancelled campaign keeps its audience, connection and status: only what it says may change.
    for (const k of ["whatsappId", "contactListId", "tagListId", "scheduledAt"] as const) delete fields[k];
  }
  const merged: CampaignItem = { ...before, ...fields, updatedAt: nowIso() };
  if (!canceled) merged.status = merged.scheduledAt ? "PROGRAMADA" : "INATIVA";
  await checkReferences(auth.companyId, merged);
  const after = await patchCampaign(before, { ...fields, status: merged.status, updatedAt: merged.updatedAt });
  if (!after) throw new AppError("ERR_CONFLICT");
  await followSchedule(after);
  await emitCampaign(after);
  return campaignView(after);
}

/** `DELETE /api/campaigns/{id}`: not while EM_ANDAMENTO (409 `ERR_CAMPAIGN_RUNNING`); removes its shippings and file. */
export async function deleteCampaign(auth: AuthContext, id: number): Promise<void> {
  const before = await requireCampaign(auth, id);
  if (before.status === "EM_ANDAMENTO") throw new AppError("ERR_CAMPAIGN_RUNNING");
  if (!(await deleteCampaignItem(before))) throw new AppError("ERR_CONFLICT");
  await cancelTimer(auth.companyId, CAMPAIGN_TIMER, id);
  await deleteShippings(auth.companyId, id);
  await dropAttachments(before.mediaPath);
  await dispatch({ type: "campaign.deleted", companyId: auth.companyId, id });
}

/**
 * `POST /api/campaigns/{id}/cancel`: EM_ANDAMENTO → CANCELADA (409 `ERR_CAMPAIGN_NOT_RUNNING` otherwise). Sends
 * already queued are dropped when their time comes (the sender checks the status): nothing more goes out.
 */
export async function cancelCampaign(auth: AuthContext, id: number): Promise<Campaign> {
  const before = await requireCampaign(auth, id);
  if (before.status !== "EM_ANDAMENTO") throw new AppError("ERR_CAMPAIGN_NOT_RUNNING");
  const after = await patchCampaign(before, { status: "CANCELADA", updatedAt: nowIso() }, { anyUpdatedAt: true, status: ["EM_ANDAMENTO"] });
  if (!after) throw new AppError("ERR_CAMPAIGN_NOT_RUNNING");
  await cancelTimer(auth.companyId, CAMPAIGN_TIMER, id);
  await emitCampaign(after);
  return campaignView(after);
}

/**
 * `POST /api/campaigns/{id}/restart`: CANCELADA → EM_ANDAMENTO (409 `ERR_CAMPAIGN_NOT_CANCELED` otherwise), the
 * pause reason cleared; the planner goes on with the numbers not yet delivered (none is sent twice).
 */
export async function restartCampaign(auth: AuthContext, id: number): Promise<Campaign> {
  const before = await requireCampaign(auth, id);
  if (before.status !== "CANCELADA") throw new AppError("ERR_CAMPAIGN_NOT_CANCELED");
  const now = nowIso();
  const after = await patchCampaign(before, { status: "EM_ANDAMENTO", runs: before.runs + 1, pauseReason: null, pausedAt: null, updatedAt: now }, { status: ["CANCELADA"] });
  if (!after) throw new AppError("ERR_CONFLICT");
  await scheduleTimer(auth.companyId, CAMPAIGN_TIMER, id, now);
  await emitCampaign(after);
  return campaignView(after);
}

/** `POST /api/campaigns/{id}/media-upload` (multipart `file`): the campaign's media, replacing any earlier one. */
export async function uploadCampaignMedia(auth: AuthContext, id: number, upload: { files: Upload[] } | undefined): Promise<Campaign> {
  const before = await requireCampaign(auth, id);
  if (!isEditable(before) && before.status !== "CANCELADA") throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE");
  return replaceAttachment(CAMPAIGN_MEDIA, auth.companyId, id, upload, before.mediaPath, async (media) => {
    const after = await patchCampaign(before, { ...media, updatedAt: nowIso() });
    if (!after) throw new AppError("ERR_CONFLICT");
    await emitCampaign(after);
    return campaignView(after);
  });
}

/** `DELETE /api/campaigns/{id}/media-upload`: removes the media (its file deleted). */
export async function deleteCampaignMedia(auth: AuthContext, id: number): Promise<Campaign> {
  const before = await requireCampaign(auth, id);
  if (!isEditable(before) && before.status !== "CANCELADA") throw new AppError("ERR_CAMPAIGN_NOT_EDITABLE");
  const after = await patchCampaign(before, { ...NO_MEDIA, updatedAt: nowIso() });
  if (!after) throw new AppError("ERR_CONFLICT");
  await dropAttachments(before.mediaPath);
  await emitCampaign(after);
  return campaignView(after);
}

/** `GET /api/campaign-settings`. */
export function showCampaignSettings(auth: AuthContext): Promise<CampaignSettings> {
  return getCampaignSettings(auth.companyId);
}

/** `POST /api/campaign-settings` `{settings}`: every key saved (variables without duplicate keys, else 400). */
export async function saveSettings(auth: AuthContext, settings: CampaignSettings): Promise<CampaignSettings> {
  await saveCampaignSettings(auth.companyId, settings, nowIso());
  return getCampaignSettings(auth.companyId);
}
