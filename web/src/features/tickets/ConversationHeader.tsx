/**
 * The conversation's header (docs/product/tickets.md#statuses-and-transitions): back, the contact (opens the drawer),
 * the features' items (the `conversationHeader` slot: the ticket's tags) and the actions: accept (pending), return
 * and resolve (open), reopen (closed), transfer, delete (admins). When the header is narrow (a screen under 600 px, or
 * a pane under {@link COMPACT_BELOW_PX} beside the contact drawer) the main action stays a button and the others move
 * into one overflow menu (Radix dropdown menu: arrows, Escape), so the header keeps one row.
 */
import * as Menu from "@radix-ui/react-dropdown-menu";
import { Button } from "@aws-amplify/ui-react";
import { ArrowLeft, EllipsisVertical } from "lucide-react";
import { type Ref, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { useSlot } from "../slots.ts";
import { Avatar } from "./ContactDrawer.tsx";
import { useMediaQuery } from "./listView.ts";
import type { Ticket } from "./types.ts";

/** Below this width the secondary actions go into the overflow menu. */
export const NARROW_QUERY = "(max-width: 599px)";
/** A header narrower than this (px) is compact whatever the screen (every action inline needs about this much). */
export const COMPACT_BELOW_PX = 640;

/** True while the element is narrower than `px` (ResizeObserver). */
function useNarrowerThan(ref: { current: HTMLElement | null }, px: number): boolean {
  const [narrow, setNarrow] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setNarrow(el.getBoundingClientRect().width < px);
    check();
    const ro = new ResizeObserver(check);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, px]);
  return narrow;
}

export interface HeaderAction {
  id: "accept" | "return" | "resolve" | "reopen" | "transfer" | "delete";
  label: string;
  run: () => void;
  variation?: "primary" | "destructive";
  busy?: boolean;
}

export function ConversationHeader(props: {
  ticket: Ticket;
  actions: HeaderAction[];
  drawerOpen: boolean;
  onToggleDrawer: () => void;
  contactButtonRef?: Ref<HTMLButtonElement>;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const headerRef = useRef<HTMLElement>(null);
  const narrowPane = useNarrowerThan(headerRef, COMPACT_BELOW_PX);
  const narrow = useMediaQuery(NARROW_QUERY) || narrowPane;
  const { ticket } = props;
  const c = ticket.contact;
  const main = props.actions.find((a) => a.id === "accept" || a.id === "resolve" || a.id === "reopen");
  const inline = narrow ? (main ? [main] : []) : props.actions;
  const overflow = narrow ? props.actions.filter((a) => a !== main) : [];
  const items = useSlot("conversationHeader");
  return (
    <header className={`conv-header ${narrow ? "compact" : ""}`} ref={headerRef} data-compact={narrow}>
      <button type="button" className="icon-btn back-btn" onClick={() => navigate("/tickets")} aria-label={t("tickets.back")}>
        <ArrowLeft size={20} aria-hidden="true" />
      </button>
      <button
        ref={props.contactButtonRef}
        type="button"
        className="conv-contact"
        onClick={props.onToggleDrawer}
        aria-label={t("tickets.contactInfo")}
        aria-expanded={props.drawerOpen}
      >
        <Avatar name={c.name} url={c.profilePicUrl} />
        <span className="conv-contact-text">
          <strong data-testid="conv-contact-name">{c.name}</strong>
          <span className="sub-line">
            {ticket.presence === "composing" ? t("tickets.composing") : ticket.presence === "recording" ? t("tickets.recording") : `#${ticket.id}`}
            {ticket.queue ? ` · ${ticket.queue.name}` : ""}
            {ticket.user ? ` · ${t("tickets.assignedTo", { name: ticket.user.name })}` : ""}
          </span>
        </span>
      </button>
      {items.map(({ id, Component }) => (
        <Component key={id} ticket={ticket} />
      ))}
      <div className="conv-actions" data-testid="conversation-actions">
        {inline.map((a) => (
          <Button key={a.id} size="small" variation={a.variation} isLoading={a.busy} onClick={a.run}>
            {a.label}
          </Button>
        ))}
        {overflow.length > 0 && (
          <Menu.Root modal={false}>
            <Menu.Trigger className="icon-btn conv-more" aria-label={t("tickets.moreActions")} data-testid="conversation-more">
              <EllipsisVertical size={20} aria-hidden="true" />
            </Menu.Trigger>
            <Menu.Portal>
              <Menu.Content className="menu-popover" align="end" sideOffset={4} collisionPadding={8} loop>
                {overflow.map((a) => (
                  <Menu.Item key={a.id} className={`menu-item ${a.variation === "destructive" ? "danger" : ""}`} onSelect={a.run}>
                    {a.label}
                  </Menu.Item>
                ))}
              </Menu.Content>
            </Menu.Portal>
          </Menu.Root>
        )}
      </div>
    </header>
  );
}
