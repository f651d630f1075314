/**
 * Room names a socket can join through `$default` frames (docs/product/realtime.md#rooms) — the optional `room` argument of `publish`
 * narrows an event to sockets that joined it (on top of the audience check).
 */
export const rooms = {
  /** `{"action":"joinNotification"}` */
  notification: "notification",
  /** `{"action":"joinTickets","status":s}` */
  tickets: (status: string) => `tickets:${status}`,
  /** `{"action":"joinChatBox","ticketId":n}` — left with `leaveChatBox` or on disconnect. */
  ticket: (ticketId: number) => `ticket:${ticketId}`,
} as const;
