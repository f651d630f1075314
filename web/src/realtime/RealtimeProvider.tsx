/**
 * Starts the tab's realtime socket while a session exists and routes its frames through the event table;
 * refetches active queries after a reconnect; implements the single-login ending (message, then the session is
 * cleared after 1 s, which sends the browser to /login).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, type ReactNode } from "react";
import i18n from "../i18n/index.ts";
import { clearSession, getSession, useSession } from "../api/session.ts";
import { useToast } from "../ui/Toast.tsx";
import { dispatchRealtime } from "./handlers.ts";
import { realtime } from "./socket.ts";

/** Delay between the single-login message and the clearing of local data (docs/product/users.md#sessions), in ms. */
export const SINGLE_LOGIN_CLEAR_MS = 1000;

export function RealtimeProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const qc = useQueryClient();
  const toast = useToast();
  const ending = useRef(false);
  const loggedIn = !!session;
  const userId = session?.user.id;

  useEffect(() => {
    if (!loggedIn) return;
    ending.current = false;
    const endSessionElsewhere = () => {
      if (ending.current) return;
      ending.current = true;
      realtime.stop();
      toast.warning(i18n.t("session.otherComputer"), { durationMs: 4000 });
      setTimeout(() => {
        clearSession();
        qc.clear();
      }, SINGLE_LOGIN_CLEAR_MS);
    };
    realtime.start({
      onFrame: ({ event, data }) => {
        const s = getSession();
        if (s && !ending.current) dispatchRealtime(event, data, { queryClient: qc, session: s, endSessionElsewhere });
      },
      // Whatever was read before the socket listened may have missed a frame: read it again (active queries refetch,
      // the others are marked stale). Queries started after the open are not affected by the gap.
      onOpen: () => void qc.invalidateQueries(),
    });
    return () => realtime.stop();
  }, [loggedIn, userId, qc, toast]);

  return <>{children}</>;
}
