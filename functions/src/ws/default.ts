/**
 * `$default` (docs/product/realtime.md#rooms): the frames a browser sends on its socket.
 *
 * - `{"action":"joinNotification"}` joins room `notification`.
 * - `{"action":"joinTickets","status":"open"|"pending"|"closed"}` joins room `tickets:<status>`.
 * - `{"action":"joinChatBox","ticketId":n}` joins `ticket:<n>` only if ticket n exists in the caller's company and
 *   the caller may see it (`canSee`: admin/super, its queue is one of the caller's, no queue and allTicket enabled, or
 *   the caller is its assignee; a closed ticket of another user only with setting viewclosed enabled, a group ticket only
 *   with viewgroups enabled). Otherwise nothing changes.
 * - `{"action":"leaveChatBox","ticketId":n}` leaves `ticket:<n>`.
 * - `{"action":"userStatus"}` (every 5 min from the web) sets the caller's `online` flag true.
 * - `{"action":"visibility","visible":bool}` (on open and on every change of the tab's visibility) records whether the
 *   tab is visible: no push notification reaches a user with a visible tab (docs/product/push.md#visible-tab).
 *
 * Anything else is answered with one `{"error":"ERR_VALIDATION"}` frame and changes nothing. The company always comes
 * from the registration made at `$connect`, never from the frame. Frames are routed through one table (`routes`), one
 * handler per action (the shape of `@middy/ws-router`, by action instead of route key: the API has one `$default`
 * route, and `@middy/ws-router` is not in the package registry this project installs from).
 */
// The composition root: every domain-event listener (this is an entry point).
import "@atende/shared/events/wiring";
import { ZodError, z } from "zod";
import { zId } from "@atende/shared/common";
import { log } from "@atende/shared/log";
import { claimStatusFrame, getSocket, getSocketMember, setSocketVisible, updateRooms } from "@atende/shared/realtime/connections";
import { sendToConnection, type SocketMember } from "@atende/shared/realtime/publish";
import { rooms } from "@atende/shared/realtime/rooms";
import { getTicketItem } from "@atende/shared/tickets/repository";
import { TicketStatus } from "@atende/shared/tickets/schema";
import { canSeeInCompany } from "@atende/shared/access/visibility";
import { setUserOnline } from "@atende/shared/users/service";
import type { WsEvent, WsResult } from "./event.ts";

const id = zId;

/** The frames a client may send (zod-parsed at the edge). */
export const ClientFrame = z.discriminatedUnion("action", [
  z.object({ action: z.literal("joinNotification") }),
  z.object({ action: z.literal("joinTickets"), status: TicketStatus }),
  z.object({ action: z.literal("joinChatBox"), ticketId: id }),
  z.object({ action: z.literal("leaveChatBox"), ticketId: id }),
  z.object({ action: z.literal("userStatus") }),
  z.object({ action: z.literal("visibility"), visible: z.boolean() }),
]);
export type ClientFrame = z.infer<typeof ClientFrame>;

function parseFrame(event: WsEvent): ClientFrame | undefined {
  if (!event.body) return undefined;
  try {
    const raw = event.isBase64Encoded ? Buffer.from(event.body, "base64").toString("utf8") : event.body;
    const out = ClientFrame.safeParse(JSON.parse(raw));
    return out.success ? out.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True when the socket's user may open the ticket's chat box: the one access rule (`access/tickets.ts` `canSee`) with
 * the company's viewclosed / viewgroups settings.
 */
async function maySeeTicket(companyId: number, member: SocketMember, ticketId: number): Promise<boolean> {
  const ticket = await getTicketItem(companyId, ticketId).catch((err) => {
    if (err instanceof ZodError) return null; // an unreadable item is nobody's chat box
    throw err;
  });
  if (!ticket || ticket.companyId !== companyId) return false;
  return canSeeInCompany(member, ticket, companyId);
}

/**
 * Fewest milliseconds between two `userStatus` frames of one socket that are taken (the web sends one every 5 minutes);
 * a frame sooner is answered 429 without a write.
 */
export const USER_STATUS_MIN_GAP_MS = 60_000;

/** What an action handler gets: the parsed frame and the registration made at `$connect`. */
interface FrameContext<F> {
  frame: F;
  connectionId: string;
  companyId: number;
  userId: number;
  /** When this socket's last `userStatus` frame was taken (epoch ms), as the registration read for this frame says. */
  statusAt?: number;
}
type Action = ClientFrame["action"];
type FrameOf<A extends Action> = Extract<ClientFrame, { action: A }>;

/** The route table of `$default`: one handler per client action (the frames the web emits). */
const routes: { [A in Action]: (ctx: FrameContext<FrameOf<A>>) => Promise<WsResult> } = {
  async joinNotification({ companyId, connectionId }) {
    await updateRooms(companyId, connectionId, (r) => [...r, rooms.notification]);
    return { statusCode: 200 };
  },
  async joinTickets({ companyId, connectionId, frame }) {
    await updateRooms(companyId, connectionId, (r) => [...r, rooms.tickets(frame.status)]);
    return { statusCode: 200 };
  },
  async joinChatBox({ companyId, connectionId, userId, frame }) {
    const member = await getSocketMember(companyId, connectionId);
    if (!member || !(await maySeeTicket(companyId, member, frame.ticketId))) {
      log("info", "ws joinChatBox refused", { companyId, userId, ticketId: frame.ticketId });
      return { statusCode: 403 };
    }
    await updateRooms(companyId, connectionId, (r) => [...r, rooms.ticket(frame.ticketId)]);
    return { statusCode: 200 };
  },
  async leaveChatBox({ companyId, connectionId, frame }) {
    await updateRooms(companyId, connectionId, (r) => r.filter((x) => x !== rooms.ticket(frame.ticketId)));
    return { statusCode: 200 };
  },
  async visibility({ companyId, connectionId, frame }) {
    return { statusCode: (await setSocketVisible(companyId, connectionId, frame.visible)) ? 200 : 410 };
  },
  async userStatus({ companyId, userId, connectionId, statusAt }) {
    const now = Date.now();
    // The registration was read for this frame anyway: a frame too soon costs no write at all.
    if (statusAt !== undefined && now - statusAt < USER_STATUS_MIN_GAP_MS) return { statusCode: 429 };
    if (!(await claimStatusFrame(connectionId, now, USER_STATUS_MIN_GAP_MS))) return { statusCode: 429 };
    await setUserOnline(companyId, userId, true);
    return { statusCode: 200 };
  },
};

export async function handler(event: WsEvent): Promise<WsResult> {
  const connectionId = event.requestContext.connectionId;
  const frame = parseFrame(event);
  if (!frame) {
    await sendToConnection(connectionId, { error: "ERR_VALIDATION" });
    return { statusCode: 400 };
  }
  const reg = await getSocket(connectionId);
  if (!reg) return { statusCode: 410 };
  const route = routes[frame.action] as (ctx: FrameContext<ClientFrame>) => Promise<WsResult>;
  return route({ frame, connectionId, companyId: reg.companyId, userId: reg.userId, statusAt: reg.statusAt });
}
