/**
 * Row actions of a list page: icon buttons (edit, delete, and any extra ones passed as children) labelled with the
 * record's name, and `useDeleteConfirm`, the delete confirmation 'Deseja realmente excluir este registro?' that runs
 * the feature's remove mutation and toasts the result.
 */
import type { UseMutationResult } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { ConfirmDialog } from "../ConfirmDialog.tsx";
import { useToast } from "../Toast.tsx";
import { DeleteIcon, EditIcon } from "./icons.tsx";

/** One round icon button with an accessible name and a tooltip. */
export function IconAction(props: { label: string; title?: string; onClick: () => void; danger?: boolean; testId?: string; children: ReactNode }) {
  return (
    <button type="button" className={`row-action ${props.danger ? "danger" : ""}`} title={props.title ?? props.label} aria-label={props.label} onClick={props.onClick} data-testid={props.testId}>
      {props.children}
    </button>
  );
}

/**
 * Edit and delete buttons for the record called `name` (either may be left out); `testIdPrefix` gives them the test
 * ids `{prefix}-edit` and `{prefix}-delete`.
 */
export function RowActions(props: { name: string; onEdit?: () => void; onDelete?: () => void; testIdPrefix?: string; children?: ReactNode }) {
  const { t } = useTranslation();
  const prefix = props.testIdPrefix ?? "row";
  return (
    <div className="row-actions">
      {props.children}
      {props.onEdit && (
        <IconAction label={`${t("common.edit")} ${props.name}`} title={t("common.edit")} onClick={props.onEdit} testId={`${prefix}-edit`}>
          <EditIcon />
        </IconAction>
      )}
      {props.onDelete && (
        <IconAction label={`${t("common.delete")} ${props.name}`} title={t("common.delete")} onClick={props.onDelete} danger testId={`${prefix}-delete`}>
          <DeleteIcon />
        </IconAction>
      )}
    </div>
  );
}

/**
 * The delete confirmation of a list: `ask(record)` opens it; "Sim" runs `remove(record.id)` and toasts `deletedText`
 * (or `failText`, else the translated error); "Não" closes it. Render `dialog` once in the page.
 */
export function useDeleteConfirm<T extends { id: number }>(remove: UseMutationResult<unknown, Error, number>, deletedText: string, toastMs?: number, failText?: string) {
  const { t } = useTranslation();
  const toast = useToast();
  const [target, setTarget] = useState<T | null>(null);
  const confirm = async () => {
    if (!target) return;
    try {
      await remove.mutateAsync(target.id);
      toast.success(deletedText, { durationMs: toastMs });
    } catch (e) {
      toast.error(failText ?? errorMessage(e, t), { durationMs: toastMs });
    }
    setTarget(null);
  };
  const dialog = <ConfirmDialog open={!!target} busy={remove.isPending} onConfirm={confirm} onClose={() => setTarget(null)} />;
  return { ask: setTarget, dialog };
}

/** The dialogs state of a CRUD list page (see {@link useCrudPage}). */
export interface CrudPage<T> {
  open: boolean;
  record: T | null;
  add: () => void;
  edit: (record: T) => void;
  close: () => void;
  ask: (record: T | null) => void;
  confirmDialog: ReactNode;
}

/**
 * The dialogs of a CRUD list page: which record the add/edit dialog shows (`add()`, `edit(record)`, `close()`) and the
 * delete confirmation (`ask(record)`, rendered by `confirmDialog`).
 */
export function useCrudPage<T extends { id: number }>(remove: UseMutationResult<unknown, Error, number>, deletedText: string, toastMs?: number, deleteFailedText?: string): CrudPage<T> {
  const del = useDeleteConfirm<T>(remove, deletedText, toastMs, deleteFailedText);
  const [editing, setEditing] = useState<{ record: T | null } | null>(null);
  return {
    open: !!editing,
    record: editing?.record ?? null,
    add: () => setEditing({ record: null }),
    edit: (record: T) => setEditing({ record }),
    close: () => setEditing(null),
    ask: del.ask,
    confirmDialog: del.dialog,
  };
}
