/**
 * A webhook's delivery log (docs/product/webhooks.md#delivery): newest first, 20 at a time ("Carregar mais"), each
 * with its time, event, status (Pendente / Entregue / Falhou), attempts, the last response code and error, and the
 * next attempt's time while pending; refreshed every 5 s while open. The "send test event" button queues a test
 * delivery that appears here. Loading, error and empty states.
 */
import { Badge, Button, Flex, Table, TableBody, TableCell, TableHead, TableRow, Text } from "@aws-amplify/ui-react";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { useAction } from "../../ui/kit/index.ts";
import { PageState } from "../../ui/PageState.tsx";
import { type Delivery, deliveriesKey, sendTestEvent, useDeliveries, type Webhook } from "./api.ts";
import { eventLabelKey } from "./WebhookDialog.tsx";

const STATUS_BADGE: Record<Delivery["status"], "success" | "error" | "info"> = { delivered: "success", failed: "error", pending: "info" };

export function DeliveriesDialog(props: { webhook: Webhook | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const hook = props.webhook;
  const log = useDeliveries(hook?.id ?? 0, !!hook);
  const action = useAction();
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: "short", timeStyle: "medium" });
  const records = log.data?.pages.flatMap((p) => p.records) ?? [];
  const test = () =>
    action.run(async () => {
      await sendTestEvent(hook!.id);
      await qc.invalidateQueries({ queryKey: deliveriesKey(hook!.id) });
    }, t("webhooks.testSent"));
  return (
    <Dialog
      open={!!hook}
      title={hook ? t("webhooks.logTitle", { name: hook.name }) : ""}
      onClose={props.onClose}
      width="60rem"
      footer={
        <Button onClick={props.onClose} data-testid="webhook-log-close">
          {t("webhooks.close")}
        </Button>
      }
    >
      <Flex direction="column" gap="0.75rem">
        <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="0.5rem">
          <Text variation="secondary" fontSize="small">
            {t("webhooks.logRetention")}
          </Text>
          <Button size="small" isLoading={action.busy} onClick={() => void test()} data-testid="webhook-log-test">
            {t("webhooks.test")}
          </Button>
        </Flex>
        <PageState loading={log.isPending} error={log.isError ? errorMessage(log.error, t) : undefined} empty={false} onRetry={() => void log.refetch()}>
          {records.length === 0 ? (
            <Text variation="secondary" padding="1rem 0" data-testid="webhook-log-empty">
              {t("webhooks.logEmpty")}
            </Text>
          ) : (
            <div className="webhook-log-scroll">
              <Table size="small" variation="striped" data-testid="webhook-log">
                <TableHead>
                  <TableRow>
                    <TableCell as="th">{t("webhooks.status")}</TableCell>
                    <TableCell as="th">{t("webhooks.when")}</TableCell>
                    <TableCell as="th">{t("webhooks.event")}</TableCell>
                    <TableCell as="th" className="hide-narrow">
                      {t("webhooks.attempts")}
                    </TableCell>
                    <TableCell as="th" className="hide-narrow">
                      {t("webhooks.response")}
                    </TableCell>
                    <TableCell as="th">{t("webhooks.lastError")}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {records.map((d) => (
                    <TableRow key={d.eventId} data-testid="webhook-delivery" data-status={d.status} data-event={d.eventType}>
                      <TableCell>
                        <Badge size="small" variation={STATUS_BADGE[d.status]}>
                          {t(`webhooks.delivery_${d.status}`)}
                        </Badge>
                      </TableCell>
                      <TableCell>{when(d.at)}</TableCell>
                      <TableCell>{t(eventLabelKey(d.eventType))}</TableCell>
                      <TableCell className="hide-narrow" data-testid="webhook-delivery-attempts">
                        {d.attempts}
                      </TableCell>
                      <TableCell className="hide-narrow">{d.responseCode ?? "—"}</TableCell>
                      <TableCell className="cell-clip">
                        {d.lastError ?? ""}
                        {d.status === "pending" && d.nextAttemptAt && (
                          <Text as="span" variation="secondary" fontSize="small" display="block">
                            {t("webhooks.nextAttempt", { at: when(d.nextAttemptAt) })}
                          </Text>
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          )}
          {log.hasNextPage && (
            <Button size="small" variation="link" isLoading={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
              {t("webhooks.loadMore")}
            </Button>
          )}
        </PageState>
      </Flex>
    </Dialog>
  );
}
