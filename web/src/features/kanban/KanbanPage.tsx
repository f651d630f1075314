/**
 * /kanban (docs/product/kanban.md): the lanes side by side — "Em aberto", then one per kanban tag — each a virtualized
 * column that loads its next page near its end. A card (contact name, number, last message, age; its name links to
 * /tickets/{uuid}) is dragged to another lane with the mouse or touch, or with the keyboard: Space picks it up, the
 * left and right arrows move it a lane, Space drops it, Escape cancels (announced to screen readers).
 */
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
} from "@dnd-kit/core";
import { Flex, Heading, Text } from "@aws-amplify/ui-react";
import { useQueryClient } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { errorMessage } from "../../api/errors.ts";
import { LoadingMore, PageState } from "../../ui/PageState.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { formatPhone, ticketAge, useNow } from "../tickets/format.ts";
import { type Card, type Lane, loadMoreCards, moveCard, OPEN_LANE, useKanbanBoard } from "./api.ts";
import "./kanban.css";

/** Height of a card's slot in a lane (card plus gap), px: the virtualizer's fixed row size. */
const CARD_PX = 104;
/** A lane loads its next page when its end is this close, px. */
const BOTTOM_PX = 200;

/** What a dragged card carries: the ticket and the lane it was picked from. */
type DragData = { card: Card; lane: number };

/** The pointer's lane while dragging with a pointer; the card's overlap with the lanes when moving by keyboard. */
const collision: CollisionDetection = (args) => (args.pointerCoordinates ? pointerWithin(args) : rectIntersection(args));

/** Keyboard moves: left and right arrows take the card to the centre of the previous or next lane. */
const laneCoordinates: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
  const dir = event.code === "ArrowRight" ? 1 : event.code === "ArrowLeft" ? -1 : 0;
  const rect = context.collisionRect;
  if (!dir || !rect) return undefined;
  event.preventDefault();
  const lanes = [...context.droppableRects.values()].sort((a, b) => a.left - b.left);
  const centre = rect.left + rect.width / 2;
  const at = lanes.findIndex((r) => centre >= r.left && centre <= r.left + r.width);
  const target = at === -1 ? (dir > 0 ? lanes.find((r) => r.left > centre) : lanes.findLast((r) => r.left + r.width < centre)) : lanes[at + dir];
  if (!target) return undefined;
  return { x: currentCoordinates.x + (target.left + target.width / 2 - centre), y: currentCoordinates.y };
};

export function KanbanPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const toast = useToast();
  const board = useKanbanBoard();
  const [dragging, setDragging] = useState<DragData | null>(null);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }), useSensor(KeyboardSensor, { coordinateGetter: laneCoordinates }));
  const lanes = board.data?.lanes ?? [];
  const laneName = (id: unknown) => {
    const l = lanes.find((x) => x.id === Number(id));
    return l ? (l.tag?.name ?? t("kanban.openLane")) : "";
  };
  const dataOf = (x: { data: { current?: unknown } }) => x.data.current as DragData | undefined;
  const announcements: Announcements = {
    onDragStart: ({ active }) => t("kanban.pickedUp", { name: dataOf(active)?.card.contact.name, lane: laneName(dataOf(active)?.lane) }),
    onDragOver: ({ active, over }) => (over ? t("kanban.over", { name: dataOf(active)?.card.contact.name, lane: laneName(over.id) }) : undefined),
    onDragEnd: ({ active, over }) => (over ? t("kanban.dropped", { name: dataOf(active)?.card.contact.name, lane: laneName(over.id) }) : t("kanban.cancelled")),
    onDragCancel: () => t("kanban.cancelled"),
  };

  const onDragStart = (e: DragStartEvent) => setDragging(dataOf(e.active) ?? null);
  const onDragEnd = (e: DragEndEvent) => {
    setDragging(null);
    const from = dataOf(e.active);
    const to = e.over ? Number(e.over.id) : undefined;
    if (!from || to === undefined || to === from.lane) return;
    moveCard(qc, from.card, from.lane, to).catch((err) => toast.error(errorMessage(err, t)));
  };

  return (
    <section className="page kanban-page" aria-labelledby="kanban-title">
      <Flex className="page-header" alignItems="center" justifyContent="space-between" wrap="wrap" gap="0.75rem">
        <Heading level={2} id="kanban-title">
          {t("kanban.title")}
        </Heading>
        {board.data && lanes.length === 1 && (
          <Text fontSize="small" variation="secondary">
            {t("kanban.noLanes")}
          </Text>
        )}
      </Flex>
      <PageState loading={board.isPending} error={board.isError ? errorMessage(board.error, t) : undefined} empty={false} onRetry={() => void board.refetch()}>
        <DndContext
          sensors={sensors}
          collisionDetection={collision}
          onDragStart={onDragStart}
          onDragEnd={onDragEnd}
          onDragCancel={() => setDragging(null)}
          accessibility={{ announcements, screenReaderInstructions: { draggable: t("kanban.dragHint") } }}
        >
          <div className="kb-board" data-testid="kanban-board">
            {lanes.map((l) => (
              <LaneColumn key={l.id} lane={l} name={laneName(l.id)} />
            ))}
          </div>
          <DragOverlay dropAnimation={null}>{dragging ? <CardBody card={dragging.card} overlay /> : null}</DragOverlay>
        </DndContext>
      </PageState>
    </section>
  );
}

function LaneColumn({ lane, name }: { lane: Lane; name: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const toast = useToast();
  const { setNodeRef, isOver } = useDroppable({ id: lane.id });
  const scroller = useRef<HTMLDivElement>(null);
  const [loading, setLoading] = useState(false);
  const v = useVirtualizer({ count: lane.tickets.length, getScrollElement: () => scroller.current, estimateSize: () => CARD_PX, overscan: 6 });
  const now = useNow();
  const more = () => {
    const el = scroller.current;
    if (!el || loading || !lane.hasMore || !lane.nextCursor) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight > BOTTOM_PX) return;
    setLoading(true);
    loadMoreCards(qc, lane.id, lane.nextCursor)
      .catch((err) => toast.error(errorMessage(err, t)))
      .finally(() => setLoading(false));
  };
  // A first page shorter than the lane keeps loading while there is no scrollbar.
  useEffect(more, [lane.tickets.length, lane.hasMore]); // eslint-disable-line react-hooks/exhaustive-deps
  const color = lane.tag?.color ?? "var(--amplify-colors-neutral-60)";
  const headId = `kb-lane-${lane.id}`;
  return (
    <section ref={setNodeRef} className={`kb-lane ${isOver ? "over" : ""}`} aria-labelledby={headId} data-testid="kanban-lane" data-lane-id={lane.id}>
      <header className="kb-lane-head" style={{ borderTopColor: color }}>
        <h3 id={headId} title={name}>
          {name}
        </h3>
        <span className="kb-count" data-testid="kanban-lane-count">
          {lane.loading ? "…" : lane.hasMore ? t("kanban.cardsMore", { count: lane.tickets.length }) : t("kanban.cards", { count: lane.tickets.length })}
        </span>
      </header>
      <div className="kb-scroll" ref={scroller} onScroll={more} aria-busy={lane.loading || loading}>
        {lane.loading && lane.tickets.length === 0 ? (
          <p className="kb-empty" role="status">
            {t("common.loading")}
          </p>
        ) : lane.tickets.length === 0 ? (
          <p className="kb-empty">{t("kanban.empty")}</p>
        ) : (
          <ul className="kb-inner" style={{ height: v.getTotalSize() }}>
            {v.getVirtualItems().map((row) => {
              const card = lane.tickets[row.index];
              return (
                <li key={card.id} className="kb-slot" style={{ transform: `translateY(${row.start}px)`, height: CARD_PX }}>
                  <DraggableCard card={card} lane={lane.id} laneName={name} now={now} />
                </li>
              );
            })}
          </ul>
        )}
        <LoadingMore active={loading} />
      </div>
    </section>
  );
}

function DraggableCard({ card, lane, laneName, now }: { card: Card; lane: number; laneName: string; now: number }) {
  const { t } = useTranslation();
  const data: DragData = { card, lane };
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: `${lane}:${card.id}`, data });
  return (
    <div
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      role="button"
      tabIndex={0}
      aria-label={t("kanban.cardLabel", { name: card.contact.name, lane: laneName })}
      className={`kb-card ${isDragging ? "dragging" : ""}`}
      data-testid="kanban-card"
      data-ticket-id={card.id}
      data-lane-id={lane === OPEN_LANE ? "0" : String(lane)}
    >
      <CardBody card={card} now={now} />
    </div>
  );
}

function CardBody({ card, now, overlay }: { card: Card; now?: number; overlay?: boolean }) {
  const { t } = useTranslation();
  const age = ticketAge(card.updatedAt, now ?? Date.now());
  return (
    <div className={`kb-card-body ${overlay ? "kb-overlay" : ""}`}>
      <div className="kb-line1">
        <Link to={`/tickets/${card.uuid}`} className="kb-name" data-testid="kanban-card-link" onPointerDown={(e) => e.stopPropagation()} tabIndex={overlay ? -1 : 0}>
          {card.contact.name}
        </Link>
        <span className={`kb-age kb-age-${age.color ?? "none"}`} title={card.updatedAt}>
          {t(`tickets.age.${age.unit}`, { n: age.n })}
        </span>
      </div>
      <div className="kb-number">{formatPhone(card.contact.number)}</div>
      <div className="kb-last">{card.lastMessage}</div>
    </div>
  );
}
