/**
 * The messages a conversation shows and how the list scrolls (docs/product/messages.md#earlier-conversation):
 * this ticket's pages (`GET /api/messages/{ticketId}`, newest page first) and, once they are all loaded, the contact's
 * earlier tickets' messages above them (`GET /api/messages/{ticketId}/earlier`, one earlier ticket per page), so a
 * customer's new ticket after a close still shows the conversation before it. Scrolling within
 * {@link TOP_THRESHOLD_PX} of the top loads the next older page (this ticket's first, then the earlier tickets');
 * a list too short to scroll loads the earlier conversation at once. Prepending keeps the reader's place; new
 * messages at the bottom are followed when the reader is at the bottom (or sent them), and a conversation opens at
 * its newest message and stays there while its media load, until the reader scrolls up: only the reader's own wheel,
 * touch, keys or scrollbar leave the bottom, never a jump the layout made (a photo sized late, a pane resized).
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { call } from "../../api/operations.ts";
import { useMessagePages } from "./api.ts";
import { flattenMessages, ticketsKeys } from "./cache.ts";
import type { Message } from "./types.ts";

/** Earlier messages load when the list is scrolled within this many px of the top (a product constant). */
export const TOP_THRESHOLD_PX = 50;
/** Within this many px of the bottom the list follows new messages. */
const FOLLOW_PX = 120;
/** A scroll this soon (ms) after the reader's wheel, touch, key or click is theirs; later ones are the layout's. */
const READER_MS = 1000;

/** The contact's earlier conversation before `ticketId` (pages newest first, each oldest → newest); off until `enabled`. */
export function useEarlierMessages(ticketId: number, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: [...ticketsKeys.messages(ticketId), "earlier"],
    enabled,
    queryFn: ({ pageParam }) => call("GET /api/messages/{ticketId}/earlier", { params: { ticketId }, query: { cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.nextCursor ? last.nextCursor : undefined),
    staleTime: 60_000,
  });
}

export function useConversationMessages(ticketId: number, peek = false) {
  const pages = useMessagePages(ticketId, peek);
  const [wantEarlier, setWantEarlier] = useState(false);
  const earlier = useEarlierMessages(ticketId, wantEarlier);
  const current = flattenMessages(pages.data);
  const before: Message[] = earlier.data ? [...earlier.data.pages].reverse().flatMap((p) => p.messages) : [];
  const messages = before.length ? [...before, ...current] : current;
  const listRef = useRef<HTMLDivElement>(null);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const didInitialScroll = useRef(false);
  const nearBottom = useRef(true);
  const lastTop = useRef(0);
  /** When the reader last used the wheel, touch, keys or a click on the list (`performance.now()` ms). */
  const lastInput = useRef(Number.NEGATIVE_INFINITY);
  /** True while the reader holds the list's scrollbar. */
  const dragging = useRef(false);
  const firstId = messages[0]?.id;
  const lastId = current[current.length - 1]?.id;
  const ownDone = pages.isSuccess && !pages.hasNextPage;
  const loadingOlder = pages.isFetchingNextPage || earlier.isFetching;

  /** Loads the next older page: this ticket's, then the earlier tickets'. Keeps the reader's place. */
  const loadOlder = () => {
    const el = listRef.current;
    if (!el || loadingOlder) return;
    if (pages.hasNextPage) {
      anchor.current = { height: el.scrollHeight, top: el.scrollTop };
      void pages.fetchNextPage();
    } else if (ownDone && !wantEarlier) {
      anchor.current = { height: el.scrollHeight, top: el.scrollTop };
      setWantEarlier(true);
    } else if (earlier.hasNextPage) {
      anchor.current = { height: el.scrollHeight, top: el.scrollTop };
      void earlier.fetchNextPage();
    }
  };

  // Keep the view anchored when older messages are prepended; start at the bottom.
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    if (anchor.current && didInitialScroll.current) {
      el.scrollTop = el.scrollHeight - anchor.current.height + anchor.current.top;
      anchor.current = null;
      return;
    }
    if (!didInitialScroll.current && messages.length) {
      didInitialScroll.current = true;
      el.scrollTop = el.scrollHeight;
    }
  }, [firstId]); // eslint-disable-line react-hooks/exhaustive-deps

  // Follow new messages at the bottom.
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const last = current[current.length - 1];
    if (nearBottom.current || last?.fromMe) el.scrollTop = el.scrollHeight;
  }, [lastId]); // eslint-disable-line react-hooks/exhaustive-deps

  // Stay at the newest message while images, videos and maps load or the pane resizes, unless the reader scrolled up:
  // media grow the list after the first scroll (`load` does not bubble, so it is caught on the way down).
  useEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const stick = () => {
      if (nearBottom.current) el.scrollTop = el.scrollHeight;
    };
    el.addEventListener("load", stick, true);
    el.addEventListener("loadedmetadata", stick, true);
    // The pane and each message row: a row that grows (a photo decoded, a map drawn) is seen even when its media's
    // `load` came before this listener or never fires.
    const ro = new ResizeObserver(stick);
    ro.observe(el);
    for (const row of el.children) ro.observe(row);
    const rows = new MutationObserver((changes) => {
      for (const c of changes) for (const n of c.addedNodes) if (n instanceof Element) ro.observe(n);
    });
    rows.observe(el, { childList: true });
    // What the reader does to the list (a press on the list itself is its scrollbar).
    const input = () => {
      lastInput.current = performance.now();
    };
    const press = (e: PointerEvent) => {
      input();
      if (e.target === el) dragging.current = true;
    };
    const release = () => {
      dragging.current = false;
    };
    el.addEventListener("wheel", input, { passive: true });
    el.addEventListener("touchmove", input, { passive: true });
    el.addEventListener("pointerdown", press);
    window.addEventListener("keydown", input);
    window.addEventListener("pointerup", release);
    window.addEventListener("pointercancel", release);
    return () => {
      el.removeEventListener("load", stick, true);
      el.removeEventListener("loadedmetadata", stick, true);
      el.removeEventListener("wheel", input);
      el.removeEventListener("touchmove", input);
      el.removeEventListener("pointerdown", press);
      window.removeEventListener("keydown", input);
      window.removeEventListener("pointerup", release);
      window.removeEventListener("pointercancel", release);
      ro.disconnect();
      rows.disconnect();
    };
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  // A list too short to scroll cannot be scrolled up: bring the earlier conversation in at once.
  useEffect(() => {
    const el = listRef.current;
    if (!el || loadingOlder || !ownDone) return;
    if (el.scrollHeight <= el.clientHeight + TOP_THRESHOLD_PX && (!wantEarlier || earlier.hasNextPage)) loadOlder();
  }, [ownDone, loadingOlder, messages.length, wantEarlier, earlier.hasNextPage]); // eslint-disable-line react-hooks/exhaustive-deps

  const onScroll = () => {
    const el = listRef.current;
    if (!el) return;
    // Only the reader moving up leaves the bottom: a scroll event read after a photo grew the list (before the
    // observer put it back at the bottom), or after the layout moved it up, shows a gap the reader did not make.
    const byReader = dragging.current || performance.now() - lastInput.current < READER_MS;
    // At the top (where earlier messages load) the reader has left the bottom whatever moved the list there.
    if (el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_PX) nearBottom.current = true;
    else if ((byReader && el.scrollTop < lastTop.current) || el.scrollTop < TOP_THRESHOLD_PX) nearBottom.current = false;
    lastTop.current = el.scrollTop;
    if (el.scrollTop < TOP_THRESHOLD_PX) loadOlder();
  };

  /** Marks the scroll about to be made as the reader's (a jump to a quoted message they clicked). */
  const readerScrolls = () => {
    lastInput.current = performance.now();
  };

  return { pages, earlier, messages, listRef, onScroll, readerScrolls, loadingOlder, hasEarlier: before.length > 0 };
}
