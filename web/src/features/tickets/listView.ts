/**
 * Which tab of the ticket list shows a ticket (e.g. accepting from "Aguardando" shows the ticket under
 * "Atendendo"). The conversation and the list are siblings, so the conversation asks through a window event that the
 * list listens to ({@link SHOW_IN_LIST_EVENT}).
 */
import { useEffect, useRef, useState } from "react";
import type { Ticket } from "./types.ts";

export type ListTab = "open" | "group" | "closed" | "search";
export type ListSub = "open" | "pending";

/** Window event carrying `{tab, sub}`. */
export const SHOW_IN_LIST_EVENT = "atende:tickets-show";

/** The tab and sub-tab a ticket in this state belongs to. */
export function placeOf(t: Pick<Ticket, "status" | "isGroup">): { tab: ListTab; sub: ListSub } {
  if (t.status === "closed") return { tab: "closed", sub: "open" };
  return { tab: t.isGroup ? "group" : "open", sub: t.status === "pending" ? "pending" : "open" };
}

/** Asks the ticket list to show the tab where `t` now is. */
export function showInList(t: Pick<Ticket, "status" | "isGroup">): void {
  window.dispatchEvent(new CustomEvent(SHOW_IN_LIST_EVENT, { detail: placeOf(t) }));
}

/** The list side: calls `apply` with each requested place. */
export function useShowInList(apply: (place: { tab: ListTab; sub: ListSub }) => void): void {
  const latest = useRef(apply);
  latest.current = apply;
  useEffect(() => {
    const on = (e: Event) => latest.current((e as CustomEvent<{ tab: ListTab; sub: ListSub }>).detail);
    window.addEventListener(SHOW_IN_LIST_EVENT, on);
    return () => window.removeEventListener(SHOW_IN_LIST_EVENT, on);
  }, []);
}

/** True while the media query matches (e.g. `(max-width: 599px)`), following changes. */
export function useMediaQuery(query: string): boolean {
  const get = () => typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia(query).matches;
  const [match, setMatch] = useState(get);
  useEffect(() => {
    if (typeof window.matchMedia !== "function") return;
    const mq = window.matchMedia(query);
    const on = () => setMatch(mq.matches);
    on();
    mq.addEventListener("change", on);
    return () => mq.removeEventListener("change", on);
  }, [query]); // eslint-disable-line react-hooks/exhaustive-deps
  return match;
}
