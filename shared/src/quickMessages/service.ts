/**
 * Quick message rules (shortcut replies the composer offers after "/").
 *
 * - Any user of the company creates quick messages; the creator is the owner (`userId`).
 * - Admin and supervisor (`quick-messages:editAny`) see, edit and delete every one; a user sees the `geral` ones and
 *   their own, and edits and deletes only their own that are not `geral` (`./access.ts`). A quick message the caller
 *   may not see is answered as missing (404 `ERR_NO_QUICK_MESSAGE_FOUND`), one they see but may not change 403
 *   `ERR_NO_PERMISSION`.
 * - Only admins (`quick-messages:global`) set or clear `geral` (403, nothing written); sending the current value back
 *   is allowed.
 * - Media: one file per quick message through the media port ({@link QUICK_MESSAGE_MEDIA}); deleting the quick message
 *   deletes its file; sending it into a ticket copies it into the message ({@link sendQuickMessage}).
 * - Every change dispatches `quickMessage.created|updated|deleted` (`./events.ts`).
 */
import type { AuthContext } from "../auth/tokens.ts";
import { can } from "../access/permissions.ts";
import { nowIso } from "../common.ts";
import { normalizeName } from "../contacts/normalize.ts";
import { nextId } from "../db/counters.ts";
import { AppError } from "../errors.ts";
import { dispatch } from "../events/index.ts";
import { copyIntoMessage, dropAttachments, replaceAttachment, storedMediaOf, type Upload } from "../media/attachments.ts";
import { NO_MEDIA } from "../media/schema.ts";
import type { MessageView } from "../messages/schema.ts";
import { newOutboundId, sendOutbound, sendTicketMessage } from "../messages/service.ts";
import { getAccessibleTicket, type TicketActor } from "../tickets/service.ts";
import { canEditQuickMessage, canSeeQuickMessage } from "./access.ts";
import "./errors.ts";
import "./events.ts";
import { deleteQuickMessageItem, getQuickMessage, listQuickMessages, putNewQuickMessage, replaceQuickMessage } from "./repository.ts";
import {
  QUICK_MESSAGE_MEDIA,
  QUICK_MESSAGES_PAGE_SIZE,
  type CreateQuickMessageBody,
  type ListQuickMessagesQuery,
  type PageQuickMessagesQuery,
  type QuickMessage,
  type QuickMessageItem,
  type QuickMessagesPage,
  type UpdateQuickMessageBody,
} from "./schema.ts";

/** A quick message as the API answers it. */
export const quickMessageView = (m: QuickMessageItem): QuickMessage => ({ ...m, isMedia: !!m.mediaPath });

const byShortcode = (a: QuickMessageItem, b: QuickMessageItem) => a.shortcode.localeCompare(b.shortcode, "pt", { sensitivity: "base" }) || a.id - b.id;

function matching(items: QuickMessageItem[], searchParam: string | undefined): QuickMessageItem[] {
  const term = normalizeName(searchParam ?? "");
  return term ? items.filter((m) => normalizeName(m.shortcode).includes(term) || normalizeName(m.message).includes(term)) : items;
}

/** The company's quick messages the caller may see, by shortcode. */
async function visible(auth: AuthContext): Promise<QuickMessageItem[]> {
  return (await listQuickMessages(auth.companyId)).filter((m) => canSeeQuickMessage(auth, m)).sort(byShortcode);
}

/** One quick message the caller may see, else 404 `ERR_NO_QUICK_MESSAGE_FOUND`. */
async function requireVisible(auth: AuthContext, id: number): Promise<QuickMessageItem> {
  const m = await getQuickMessage(auth.companyId, id);
  if (!m || !canSeeQuickMessage(auth, m)) throw new AppError("ERR_NO_QUICK_MESSAGE_FOUND");
  return m;
}

/** One quick message the caller may change: 404 as {@link requireVisible}, 403 `ERR_NO_PERMISSION` when they may only see it. */
async function requireEditable(auth: AuthContext, id: number): Promise<QuickMessageItem> {
  const m = await requireVisible(auth, id);
  if (!canEditQuickMessage(auth, m)) throw new AppError("ERR_NO_PERMISSION");
  return m;
}

/** 403 `ERR_NO_PERMISSION` when the caller would change `geral` without `quick-messages:global`. */
function checkGeral(auth: AuthContext, wanted: boolean | undefined, current: boolean): void {
  if (wanted !== undefined && wanted !== current && !can(auth, "quick-messages:global")) throw new AppError("ERR_NO_PERMISSION");
}

/** Writes `after` over `before` (409 `ERR_CONFLICT` when it changed meanwhile) and dispatches the update. */
async function save(before: QuickMessageItem, after: QuickMessageItem): Promise<QuickMessage> {
  if (!(await replaceQuickMessage(before, after))) throw new AppError("ERR_CONFLICT");
  const record = quickMessageView(after);
  await dispatch({ type: "quickMessage.updated", companyId: after.companyId, record, wasGeral: before.geral });
  return record;
}

/**
 * `GET /api/quick-messages/list` (any user): the quick messages the caller may see, by shortcode. `userId` keeps
 * that user's own plus the `geral` ones (the composer's list), `status` only the active (true) or inactive ones,
 * `searchParam` those whose shortcode or message contains it (accent- and case-insensitive).
 */
export async function listQuickMessagesFor(auth: AuthContext, q: ListQuickMessagesQuery): Promise<QuickMessage[]> {
  let items = matching(await visible(auth), q.searchParam);
  if (q.userId !== undefined) items = items.filter((m) => m.geral || m.userId === q.userId);
  if (q.status !== undefined) items = items.filter((m) => m.status === q.status);
  return items.map(quickMessageView);
}

/** `GET /api/quick-messages` (any user): one page of {@link QUICK_MESSAGES_PAGE_SIZE} of what the caller sees → `{records, count, hasMore}`. */
export async function pageQuickMessages(auth: AuthContext, q: PageQuickMessagesQuery): Promise<QuickMessagesPage> {
  const all = matching(await visible(auth), q.searchParam);
  const from = (q.pageNumber - 1) * QUICK_MESSAGES_PAGE_SIZE;
  const records = all.slice(from, from + QUICK_MESSAGES_PAGE_SIZE).map(quickMessageView);
  return { records, count: all.length, hasMore: from + records.length < all.length };
}

/** `GET /api/quick-messages/{id}`: one the caller may see, else 404 `ERR_NO_QUICK_MESSAGE_FOUND`. */
export async function showQuickMessage(auth: AuthContext, id: number): Promise<QuickMessage> {
  return quickMessageView(await requireVisible(auth, id));
}

/**
 * `POST /api/quick-messages` (any user): a quick message owned by the caller in the caller's company. `geral: true`
 * without `quick-messages:global` → 403 `ERR_NO_PERMISSION`, nothing written. Dispatches `quickMessage.created`.
 */
export async function createQuickMessage(auth: AuthContext, body: CreateQuickMessageBody): Promise<QuickMessage> {
  checkGeral(auth, body.geral, false);
  const now = nowIso();
  const item: QuickMessageItem = {
    id: await nextId(auth.companyId, "quickMessage"),
    companyId: auth.companyId,
    userId: auth.userId,
    shortcode: body.shortcode,
    message: body.message ?? "",
    geral: body.geral ?? false,
    status: body.status ?? true,
    ...NO_MEDIA,
    createdAt: now,
    updatedAt: now,
  };
  await putNewQuickMessage(item);
  const record = quickMessageView(item);
  await dispatch({ type: "quickMessage.created", companyId: auth.companyId, record });
  return record;
}

/**
 * `PUT /api/quick-messages/{id}`: changes the given fields of one the caller may edit (404 / 403 as above); changing
 * `geral` needs `quick-messages:global` (403). 409 `ERR_CONFLICT` when it changed meanwhile. Dispatches the update.
 */
export async function updateQuickMessage(auth: AuthContext, id: number, body: UpdateQuickMessageBody): Promise<QuickMessage> {
  const before = await requireEditable(auth, id);
  checkGeral(auth, body.geral, before.geral);
  return save(before, {
    ...before,
    shortcode: body.shortcode ?? before.shortcode,
    message: body.message ?? before.message,
    geral: body.geral ?? before.geral,
    status: body.status ?? before.status,
    updatedAt: nowIso(),
  });
}

/** `DELETE /api/quick-messages/{id}`: deletes one the caller may edit, and its media file. Dispatches the delete. */
export async function deleteQuickMessage(auth: AuthContext, id: number): Promise<void> {
  const before = await requireEditable(auth, id);
  if (!(await deleteQuickMessageItem(before))) throw new AppError("ERR_CONFLICT");
  await dropAttachments(before.mediaPath);
  await dispatch({ type: "quickMessage.deleted", companyId: auth.companyId, id, userId: before.userId, geral: before.geral });
}

/**
 * `POST /api/quick-messages/{id}/media-upload` (multipart, one file): the quick message's new media (spaces of its
 * name become underscores), replacing and deleting any earlier file. 404 / 403 as for an edit; 400 `ERR_VALIDATION`
 * without a file or over the type's limit. Dispatches the update.
 */
export async function uploadQuickMessageMedia(auth: AuthContext, id: number, upload: { files: Upload[] } | undefined): Promise<QuickMessage> {
  const before = await requireEditable(auth, id);
  return replaceAttachment(QUICK_MESSAGE_MEDIA, auth.companyId, id, upload, before.mediaPath, (media) => save(before, { ...before, ...media, updatedAt: nowIso() }));
}

/** `DELETE /api/quick-messages/{id}/media-upload`: removes the media (its file deleted). 404 / 403 as for an edit. */
export async function deleteQuickMessageMedia(auth: AuthContext, id: number): Promise<QuickMessage> {
  const before = await requireEditable(auth, id);
  const out = await save(before, { ...before, ...NO_MEDIA, updatedAt: nowIso() });
  await dropAttachments(before.mediaPath);
  return out;
}

/**
 * `POST /api/messages/{ticketId}` `{body, quickMessageId}`: the composer sends a quick message on a ticket the caller
 * may act on (403/404 as for any send). The quick message must be one the caller may see (else 404
 * `ERR_NO_QUICK_MESSAGE_FOUND`, nothing sent). With media, its file goes out as a message of its own, a server-side
 * copy (the quick message may change later without touching the ticket's history), `body` its caption (the file
 * name when empty); without media (or when its file is gone) `body` goes out as a text message.
 */
export async function sendQuickMessage(actor: TicketActor & AuthContext, ticketId: number, quickMessageId: number, body: string): Promise<MessageView> {
  const ticket = await getAccessibleTicket(actor, ticketId);
  const qm = await requireVisible(actor, quickMessageId);
  const media = storedMediaOf(qm);
  if (media) {
    const messageId = await newOutboundId();
    const copy = await copyIntoMessage(actor.companyId, ticket.id, messageId, media);
    if (copy) {
      const text = body.trim();
      return sendOutbound(actor.companyId, { userId: actor.userId, name: actor.name }, ticket, { body: text || copy.name, signMessage: false, messageId, media: copy });
    }
  }
  return sendTicketMessage(actor, ticket.id, { body });
}
