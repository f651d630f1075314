/**
 * Joins a realtime room while the calling component is mounted (and again after every reconnect), e.g.
 * `useRealtimeRoom({action:"joinChatBox", ticketId}, {action:"leaveChatBox", ticketId})` or
 * `useRealtimeRoom({action:"joinTickets", status:"open"})`. Pass `null` to join nothing.
 */
import { useEffect } from "react";
import { realtime, type OutFrame } from "./socket.ts";

export function useRealtimeRoom(join: OutFrame | null, leave?: OutFrame): void {
  const joinKey = join ? JSON.stringify(join) : "";
  const leaveKey = leave ? JSON.stringify(leave) : "";
  useEffect(() => {
    if (!joinKey) return;
    const j = JSON.parse(joinKey) as OutFrame;
    const l = leaveKey ? (JSON.parse(leaveKey) as OutFrame) : undefined;
    realtime.join(j);
    return () => realtime.leave(j, l);
  }, [joinKey, leaveKey]);
}
