/**
 * /queues (administration.md §2 Queues, admin): table of id, name, colour, greeting message and actions; add/edit
 * dialog; delete after 'Deseja realmente excluir este registro?'; live updates through the realtime table.
 */
import { Button, Flex, Heading, Table, TableBody, TableCell, TableHead, TableRow, Text } from "@aws-amplify/ui-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { PageState } from "../../ui/PageState.tsx";
import { HeaderCells } from "../../ui/HeaderCells.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { useDeleteQueue, useQueues } from "./api.ts";
import { QueueDialog } from "./QueueDialog.tsx";
import type { Queue } from "./types.ts";

export function QueuesPage() {
  const { t } = useTranslation();
  const toast = useToast();
  const q = useQueues();
  const del = useDeleteQueue();
  const [editing, setEditing] = useState<Queue | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [deleting, setDeleting] = useState<Queue | null>(null);
  const queues = q.data ?? [];

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await del.mutateAsync(deleting.id);
      toast.success(t("queues.deleted"));
    } catch (e) {
      toast.error(errorMessage(e, t));
    }
    setDeleting(null);
  };

  return (
    <section className="page" aria-labelledby="queues-title">
      <Flex className="page-header" alignItems="center" justifyContent="space-between" wrap="wrap" gap="0.75rem">
        <Heading level={2} id="queues-title">
          {t("queues.title")}
        </Heading>
        <Button
          variation="primary"
          size="small"
          onClick={() => {
            setEditing(null);
            setDialogOpen(true);
          }}
        >
          {t("queues.add")}
        </Button>
      </Flex>
      <div className="table-scroll">
        <PageState loading={q.isPending} error={q.isError ? errorMessage(q.error, t) : undefined} empty={!q.isPending && !queues.length} onRetry={() => void q.refetch()}>
          <Table size="small" highlightOnHover className="data-table" aria-labelledby="queues-title">
            <TableHead>
              <TableRow>
                <HeaderCells
                  columns={[
                    { label: t("queues.id"), className: "col-id" },
                    { label: t("queues.name") },
                    { label: t("queues.color") },
                    { label: t("queues.greetingMessage"), className: "hide-narrow" },
                    { label: t("common.actions"), className: "col-actions" },
                  ]}
                />
              </TableRow>
            </TableHead>
            <TableBody>
              {queues.map((x) => (
                <TableRow key={x.id} data-testid="queue-row">
                  <TableCell className="col-id">{x.id}</TableCell>
                  <TableCell>{x.name}</TableCell>
                  <TableCell>
                    <span className="queue-chip">
                      <span className="swatch" style={{ background: x.color }} aria-hidden="true" />
                      <Text as="span" fontSize="small">
                        {x.color}
                      </Text>
                    </span>
                  </TableCell>
                  <TableCell className="hide-narrow cell-clip">{x.greetingMessage}</TableCell>
                  <TableCell className="col-actions">
                    <Flex gap="0.25rem" justifyContent="flex-end">
                      <Button
                        size="small"
                        variation="link"
                        aria-label={`${t("common.edit")} ${x.name}`}
                        onClick={() => {
                          setEditing(x);
                          setDialogOpen(true);
                        }}
                      >
                        {t("common.edit")}
                      </Button>
                      <Button size="small" variation="link" colorTheme="error" aria-label={`${t("common.delete")} ${x.name}`} onClick={() => setDeleting(x)}>
                        {t("common.delete")}
                      </Button>
                    </Flex>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </PageState>
      </div>
      <QueueDialog open={dialogOpen} queue={editing} onClose={() => setDialogOpen(false)} />
      <ConfirmDialog open={!!deleting} busy={del.isPending} onConfirm={confirmDelete} onClose={() => setDeleting(null)} />
    </section>
  );
}
