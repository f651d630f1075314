/**
 * Realtime entries of the attendance screens (docs/product/realtime.md), merged into THE event table
 * (`web/src/realtime/handlers.ts`):
 * - `ticket` `{action:"update", ticket}` → lists and the open ticket; `{action:"delete", ticketId}` → removed;
 * - `appMessage` `{action:"create"|"update", message, ticket}` → the conversation and the ticket's row; a new inbound
 *   message raises a browser notification and a sound (volume from localStorage `volume`, 0..1), or, when this tab
 *   shows its conversation, is read at once (unread count back to zero, read receipts sent);
 * - both keep the top bar's unread-tickets list current (`notifications/unread.ts`) and the sub-tabs' counts
 *   (`counts.ts`: read again when a ticket changed tabs).
 * (`contact`, `whatsapp` and `whatsappSession` frames are the contacts and connections features' own.)
 * Updates older than the cached `updatedAt` are dropped by the cache helpers.
 */
import { canSee } from "@atende/shared/access/tickets";
import type { RealtimeHandler } from "../../realtime/handlers.ts";
import { call } from "../../api/operations.ts";
import i18n from "../../i18n/index.ts";
import { visibilityOf } from "../settings/api.ts";
import { viewerOf } from "./api.ts";
import { removeTicket, upsertMessage, upsertTicket } from "./cache.ts";
import { noteTicketForCounts } from "./counts.ts";
import { applyUnreadTicket, removeUnreadTicket } from "./notifications/unread.ts";
import type { Message, Ticket } from "./types.ts";


/** localStorage key of the notification volume. */
export const VOLUME_KEY = "volume";
/** Event fired on `window` when the volume changes in this tab (other tabs get the `storage` event). */
export const VOLUME_EVENT = "atende:volume";

/** Rounds and clamps a volume to 0..1 in steps of 0.1; non-numbers give 1. */
export function normalizeVolume(v: unknown): number {
  const n = Number(v);
  return Number.isFinite(n) ? Math.round(Math.min(1, Math.max(0, n)) * 10) / 10 : 1;
}

/** Notification volume (localStorage `volume`, 0..1 in steps of 0.1; default 1). */
export function notificationVolume(): number {
  return normalizeVolume(localStorage.getItem(VOLUME_KEY) ?? "1");
}

/** Saves the notification volume (normalized to 0..1, step 0.1) and tells this tab's listeners. Returns the saved value. */
export function setNotificationVolume(v: number): number {
  const volume = normalizeVolume(v);
  localStorage.setItem(VOLUME_KEY, String(volume));
  window.dispatchEvent(new CustomEvent(VOLUME_EVENT, { detail: volume }));
  return volume;
}

let audioCtx: AudioContext | null = null;

/**
 * Creates or resumes the audio context. Browsers only allow audio after a user gesture, so the app calls this from
 * one (the first click or key press, and the volume control) so later chimes from realtime frames are audible.
 */
export function unlockAudio(): void {
  if (typeof AudioContext === "undefined") return;
  try {
    audioCtx ??= new AudioContext();
    if (audioCtx.state === "suspended") void audioCtx.resume().catch(() => undefined);
  } catch {
    /* no audio device */
  }
}

/** A short two-tone chime at the saved volume, or at `volume` (0..1) when given (no asset needed). */
export function playChime(volume = notificationVolume()): void {
  if (!volume || typeof AudioContext === "undefined") return;
  try {
    audioCtx ??= new AudioContext();
    const ctx = audioCtx;
    [880, 660].forEach((f, i) => {
      const o = ctx.createOscillator();
      const g = ctx.createGain();
      o.frequency.value = f;
      g.gain.setValueAtTime(0.15 * volume, ctx.currentTime + i * 0.15);
      g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + i * 0.15 + 0.14);
      o.connect(g).connect(ctx.destination);
      o.start(ctx.currentTime + i * 0.15);
      o.stop(ctx.currentTime + i * 0.15 + 0.15);
    });
  } catch {
    /* audio blocked until a user gesture: ignore */
  }
}

/** True while this tab shows the ticket's conversation and the user attends it (a peek at a waiting ticket reads nothing). */
const lookingAt = (ticket: Ticket) =>
  document.visibilityState === "visible" && location.pathname === `/tickets/${ticket.uuid}` && !new URLSearchParams(location.search).has("peek");

/**
 * The ticket as this tab's lists and unread count should hold it: a conversation on screen is read (its read request
 * follows), so a frame that still carries its unread count (one sent before the read, arriving after it) never counts
 * it unread again.
 */
const asSeen = (ticket: Ticket): Ticket => (ticket.unreadMessages > 0 && lookingAt(ticket) ? { ...ticket, unreadMessages: 0 } : ticket);

const readTimers = new Map<number, ReturnType<typeof setTimeout>>();
/** Delay before a message that arrives in the open conversation is marked read, in ms (batches a burst). */
export const READ_WHILE_LOOKING_MS = 800;

/**
 * A message arrived in the conversation the user is looking at: it is read. Reading the first page
 * (`GET /api/messages/{ticketId}`) zeroes the ticket's unread count and sends the read receipts, as opening it does;
 * one read per ticket per {@link READ_WHILE_LOOKING_MS}.
 */
function readWhileLooking(ticket: Ticket): void {
  if (readTimers.has(ticket.id)) return;
  readTimers.set(
    ticket.id,
    setTimeout(() => {
      readTimers.delete(ticket.id);
      if (lookingAt(ticket)) void call("GET /api/messages/{ticketId}", { params: { ticketId: ticket.id } }).catch(() => undefined);
    }, READ_WHILE_LOOKING_MS),
  );
}

/** Browser notification for a new inbound message the user is not looking at (unsupported browsers: only logged). */
function notify(message: Message, ticket: Ticket): void {
  if (lookingAt(ticket)) return;
  playChime();
  if (typeof Notification === "undefined") {
    console.info("browser notifications unsupported");
    return;
  }
  const show = () => {
    const n = new Notification(i18n.t("tickets.notify.newMessage", { name: ticket.contact?.name ?? "" }), {
      body: message.body.slice(0, 200),
      tag: `ticket-${ticket.id}`,
      icon: ticket.contact?.profilePicUrl || undefined,
    });
    n.onclick = () => {
      window.focus();
      history.pushState({}, "", `/tickets/${ticket.uuid}`);
      dispatchEvent(new PopStateEvent("popstate"));
      n.close();
    };
  };
  if (Notification.permission === "granted") show();
  else if (Notification.permission === "default") void Notification.requestPermission().then((p) => p === "granted" && show());
}

export const attendanceHandlers: { ticket: RealtimeHandler<"ticket">; appMessage: RealtimeHandler<"appMessage"> } = {
  ticket: (data, { queryClient, session }) => {
    if (data.action === "delete") {
      noteTicketForCounts(queryClient, data.ticketId, null);
      removeTicket(queryClient, data.ticketId);
      removeUnreadTicket(queryClient, data.ticketId);
      return;
    }
    noteTicketForCounts(queryClient, data.ticket.id, data.ticket);
    upsertTicket(queryClient, asSeen(data.ticket), viewerOf(session.user));
    applyUnreadTicket(queryClient, asSeen(data.ticket), viewerOf(session.user));
  },

  appMessage: (data, { queryClient, session }) => {
    const { message, ticket: t } = data;
    const fresh = upsertMessage(queryClient, message);
    noteTicketForCounts(queryClient, t.id, t);
    upsertTicket(queryClient, asSeen(t), viewerOf(session.user));
    applyUnreadTicket(queryClient, asSeen(t), viewerOf(session.user));
    // Notify for my tickets, and for pending ones I may see (the one access rule, shared with the server).
    const me = { ...session.user, userId: session.user.id };
    const mine = t.userId === session.user.id || (t.status === "pending" && canSee(me, t, visibilityOf(queryClient)));
    if (fresh && data.action === "create" && !message.fromMe && t.unreadMessages > 0 && lookingAt(t)) readWhileLooking(t);
    if (fresh && data.action === "create" && !message.fromMe && !t.isGroup && t.status !== "closed" && mine && message.mediaType !== "reactionMessage") notify(message, t);
  },
};
