/**
 * The tags of a ticket in the conversation header (docs/product/tags.md#tags-on-tickets): its chips and an
 * edit button opening a checklist of the company's tags (GET /api/tags/list); saving sends the whole set with
 * POST /api/tags/sync, toasts 'Ticket Tag Adicionado com Sucesso!' or 'Ticket Tag Removido!', and shows the new tags in
 * the header and the ticket's row at once (the server's ticket update follows through the realtime table).
 */
import { Button, Text } from "@aws-amplify/ui-react";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { useSession } from "../../api/session.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { ATTENDANCE_TOAST_MS, useToast } from "../../ui/Toast.tsx";
import { viewerOf } from "../tickets/api.ts";
import { ticketsKeys, upsertTicket } from "../tickets/cache.ts";
import type { Ticket } from "../tickets/types.ts";
import { syncTicketTags, useTagList } from "./api.ts";
import { TagChip } from "./TagChip.tsx";
import type { TicketTag } from "./types.ts";

/** Tag icon (Material Design path, Apache-2.0). */
function TagIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M21.41 11.58l-9-9C12.05 2.22 11.55 2 11 2H4c-1.1 0-2 .9-2 2v7c0 .55.22 1.05.59 1.42l9 9c.36.36.86.58 1.41.58s1.05-.22 1.41-.59l7-7c.37-.36.59-.86.59-1.41s-.23-1.06-.59-1.42zM5.5 7C4.67 7 4 6.33 4 5.5S4.67 4 5.5 4 7 4.67 7 5.5 6.33 7 5.5 7z" />
    </svg>
  );
}

/** A checklist of tags; `value` holds the chosen ids. */
export function TagChecklist({ tags, value, onChange }: { tags: TicketTag[]; value: number[]; onChange: (ids: number[]) => void }) {
  return (
    <ul className="tag-options">
      {tags.map((tag) => (
        <li key={tag.id}>
          <label>
            <input type="checkbox" checked={value.includes(tag.id)} onChange={(e) => onChange(e.target.checked ? [...value, tag.id] : value.filter((x) => x !== tag.id))} />
            <TagChip tag={tag} />
          </label>
        </li>
      ))}
    </ul>
  );
}

export function TicketTags({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const toast = useToast();
  const qc = useQueryClient();
  const session = useSession()!;
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const list = useTagList(open);
  const current: TicketTag[] = ticket.tags ?? [];
  // Named on the button too: at 375 px the chips give way to the button's count (tags.css), so it carries the names.
  const names = current.map((x) => x.name).join(", ");

  const save = async () => {
    const before = new Set(current.map((x) => x.id));
    const added = chosen.some((id) => !before.has(id));
    const removed = current.some((x) => !chosen.includes(x.id));
    if (!added && !removed) return setOpen(false);
    setBusy(true);
    try {
      await syncTicketTags(ticket.id, chosen);
      const all = list.data ?? [];
      const tags = chosen.map((id) => all.find((x) => x.id === id) ?? current.find((x) => x.id === id)).filter((x): x is TicketTag => !!x).map(({ id, name, color }) => ({ id, name, color }));
      const next = { ...ticket, tags };
      qc.setQueryData<Ticket>(ticketsKeys.byUuid(ticket.uuid), (cur) => (cur ? { ...cur, tags } : cur));
      upsertTicket(qc, next, viewerOf(session.user));
      toast.success(added ? t("tags.added") : t("tags.removed"), { durationMs: ATTENDANCE_TOAST_MS });
      setOpen(false);
    } catch (e) {
      toast.error(errorMessage(e, t), { durationMs: ATTENDANCE_TOAST_MS });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="ticket-tags" data-testid="ticket-tags" aria-label={t("tags.ticketTags")} role="group">
      {current.map((tag) => (
        <TagChip key={tag.id} tag={tag} small />
      ))}
      <button
        type="button"
        className="ticket-tags-edit"
        aria-label={current.length ? `${t("tags.editTicketTags")}: ${names}` : t("tags.editTicketTags")}
        title={current.length ? names : t("tags.editTicketTags")}
        onClick={() => {
          setChosen(current.map((x) => x.id));
          setOpen(true);
        }}
        data-testid="edit-ticket-tags"
      >
        <TagIcon />
        {current.length > 0 && (
          <span className="ticket-tags-count" aria-hidden="true">
            {current.length}
          </span>
        )}
      </button>
      <Dialog
        open={open}
        title={t("tags.ticketTags")}
        onClose={() => setOpen(false)}
        onSubmit={() => void save()}
        width="24rem"
        footer={
          <>
            <Button onClick={() => setOpen(false)}>{t("common.cancel")}</Button>
            <Button type="submit" variation="primary" isLoading={busy} data-testid="save-ticket-tags">
              {t("common.save")}
            </Button>
          </>
        }
      >
        {list.isPending ? (
          <Text role="status">{t("common.loading")}</Text>
        ) : list.isError ? (
          <Text role="alert">{errorMessage(list.error, t)}</Text>
        ) : list.data.length ? (
          <TagChecklist tags={list.data} value={chosen} onChange={setChosen} />
        ) : (
          <Text variation="secondary">{t("tags.noTags")}</Text>
        )}
      </Dialog>
    </div>
  );
}

/** The search tab's tag filter (Tickets screen): a disclosure with the company's tags to check. */
export function TagFilter({ value, onChange }: { value: number[]; onChange: (ids: number[]) => void }) {
  const { t } = useTranslation();
  const list = useTagList();
  return (
    <details className="tag-filter" data-testid="tag-filter">
      <summary className="text-input" aria-label={t("tags.filter")}>
        {value.length ? t("tags.filterCount", { count: value.length }) : t("tags.filter")}
      </summary>
      <div className="tag-filter-panel">
        {list.data?.length ? <TagChecklist tags={list.data} value={value} onChange={onChange} /> : <Text variation="secondary" fontSize="small">{t("tags.noTags")}</Text>}
      </div>
    </details>
  );
}
