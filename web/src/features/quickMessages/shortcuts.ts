/**
 * The composer's "/" suggestions of quick messages (the list's text is cut at 35 characters): the active ones the user may send, whose shortcode or text holds what was typed after "/". Choosing a
 * text one puts its text in the composer (edited or not, it is sent as the agent's text: the server renders its
 * variables); choosing one with media sends it at once, its text as the caption.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { useSession } from "../../api/session.ts";
import { ATTENDANCE_TOAST_MS, useToast } from "../../ui/Toast.tsx";
import { upsertMessage } from "../tickets/cache.ts";
import type { ShortcutProvider, ShortcutSuggestion } from "../types.ts";
import { sendQuickMessage, useComposerQuickMessages, type QuickMessage } from "./api.ts";

/** Characters of a quick message's text the list shows. */
export const LABEL_MAX = 35;

/** The text as the list shows it: at most {@link LABEL_MAX} characters, then "...". */
export const cut = (text: string): string => (text.length > LABEL_MAX ? `${text.slice(0, LABEL_MAX)}...` : text);

/** The quick messages matching `query` (shortcode or text, case- and accent-insensitive), by shortcode. */
export function matching(list: QuickMessage[], query: string): QuickMessage[] {
  const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  const q = fold(query.trim());
  return list.filter((m) => m.status && (!q || fold(m.shortcode).includes(q) || fold(m.message).includes(q))).sort((a, b) => a.shortcode.localeCompare(b.shortcode));
}

function useQuickMessageSuggestions(query: string, ticket: { id: number }, active: boolean): ShortcutSuggestion[] {
  const { t } = useTranslation();
  const me = useSession()!.user;
  const qc = useQueryClient();
  const toast = useToast();
  const live = useRef({ t, toast });
  live.current = { t, toast };
  const list = useComposerQuickMessages(me.id, active);
  return useMemo(
    () =>
      matching(list.data ?? [], query).map((m) => ({
        key: String(m.id),
        label: `/${m.shortcode}`,
        detail: m.isMedia ? `📎 ${m.mediaName ?? ""}${m.message ? ` · ${cut(m.message)}` : ""}` : cut(m.message),
        choose: async (composer) => {
          if (!m.isMedia) return composer.setText(m.message);
          composer.setText("");
          try {
            const sent = await sendQuickMessage(ticket.id, m.message, m.id);
            for (const x of Array.isArray(sent) ? sent : [sent]) upsertMessage(qc, x);
          } catch (e) {
            live.current.toast.error(errorMessage(e, live.current.t), { durationMs: ATTENDANCE_TOAST_MS });
          }
        },
      })),
    [list.data, query, ticket.id, qc],
  );
}

export const quickMessageShortcuts: ShortcutProvider = { id: "quickMessages", useSuggestions: useQuickMessageSuggestions };
