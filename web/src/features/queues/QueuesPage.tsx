/**
 * /queues (docs/product/queues.md, admin) on the kit's list page: table of id, name, colour, greeting message
 * and actions; add/edit dialog; delete after 'Deseja realmente excluir este registro?'; live through
 * `company-{id}-queue`.
 */
import { Button, TableCell, TableRow, Text } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { fromArray, ListPage, RowActions, useCrudPage } from "../../ui/kit/index.ts";
import { useQueueMutations, useQueues } from "./api.ts";
import { QueueDialog } from "./QueueDialog.tsx";
import type { Queue } from "./types.ts";

export function QueuesPage() {
  const { t } = useTranslation();
  const list = fromArray(useQueues());
  const { remove } = useQueueMutations();
  const page = useCrudPage<Queue>(remove, t("queues.deleted"));
  return (
    <ListPage
      id="queues"
      title={t("queues.title")}
      tools={
        <Button variation="primary" size="small" onClick={() => page.add()}>
          {t("queues.add")}
        </Button>
      }
      list={list}
      columns={[
        { label: t("queues.id"), className: "col-id" },
        { label: t("queues.name") },
        { label: t("queues.color") },
        { label: t("queues.greetingMessage"), className: "hide-narrow" },
        { label: t("common.actions"), className: "col-actions" },
      ]}
      row={(x) => (
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
            <RowActions name={x.name} onEdit={() => page.edit(x)} onDelete={() => page.ask(x)} testIdPrefix="queue" />
          </TableCell>
        </TableRow>
      )}
    >
      <QueueDialog open={page.open} queue={page.record} onClose={page.close} />
      {page.confirmDialog}
    </ListPage>
  );
}
