/**
 * /webhooks (admins; docs/product/webhooks.md): the company's webhooks on the kit's CRUD list page: name, URL, events,
 * Ativo/Inativo and the secret's last characters; add/edit dialog (events as checkboxes); delete after 'Deseja
 * realmente excluir este registro?'. Row buttons: the delivery log (with "send test event"), send a test event, and a
 * new secret (confirmed). A secret (new webhook or regenerated) is shown once, with a copy button.
 */
import { Badge, Text } from "@aws-amplify/ui-react";
import { useQueryClient } from "@tanstack/react-query";
import { History, KeyRound, Send } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { CrudListPage, fromArray, IconAction, useAction, useCrudPage } from "../../ui/kit/index.ts";
import { regenerateSecret, sendTestEvent, shownSecret, type Webhook, webhooksCache, useWebhookMutations, useWebhooks, deliveriesKey } from "./api.ts";
import { DeliveriesDialog } from "./DeliveriesDialog.tsx";
import { SecretDialog } from "./SecretDialog.tsx";
import { eventLabelKey, WebhookDialog } from "./WebhookDialog.tsx";

export function WebhooksPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const list = fromArray(useWebhooks());
  const page = useCrudPage<Webhook>(useWebhookMutations().remove, t("webhooks.deleted"));
  const [secret, setSecret] = useState<string | null>(null);
  const [logOf, setLogOf] = useState<Webhook | null>(null);
  const [renewing, setRenewing] = useState<Webhook | null>(null);
  const action = useAction();

  const showCreatedSecret = () => {
    setSecret(shownSecret.current?.secret ?? null);
    shownSecret.current = null;
  };
  const renew = (h: Webhook) =>
    action.run(async () => {
      const r = await regenerateSecret(h.id);
      webhooksCache.upsert(qc, r.webhook);
      setRenewing(null);
      setSecret(r.secret);
    });
  const test = (h: Webhook) =>
    action.run(async () => {
      await sendTestEvent(h.id);
      await qc.invalidateQueries({ queryKey: deliveriesKey(h.id) });
    }, t("webhooks.testSent"));

  return (
    <CrudListPage
      ns="webhooks"
      entity="webhook"
      page={page}
      list={list}
      columns={[
        { label: t("webhooks.name"), cell: (h) => <strong>{h.name}</strong> },
        { label: t("webhooks.url"), className: "hide-narrow", cellClassName: "cell-clip", cell: (h) => <span title={h.url}>{h.url}</span> },
        {
          label: t("webhooks.events"),
          className: "hide-narrow",
          cell: (h) => <span title={h.events.map((e) => t(eventLabelKey(e))).join(", ")}>{t("webhooks.eventsCount", { count: h.events.length })}</span>,
        },
        {
          label: t("webhooks.status"),
          cell: (h) => (
            <Badge size="small" variation={h.enabled ? "success" : undefined}>
              {h.enabled ? t("webhooks.enabled") : t("webhooks.disabled")}
            </Badge>
          ),
        },
        {
          label: t("webhooks.secret"),
          className: "hide-narrow",
          cell: (h) => (
            <Text as="span" fontSize="small" variation="secondary">
              {t("webhooks.secretHint", { hint: h.secretHint })}
            </Text>
          ),
        },
      ]}
      actions={(h) => (
        <>
          <IconAction label={`${t("webhooks.log")} ${h.name}`} title={t("webhooks.log")} onClick={() => setLogOf(h)} testId="webhook-log">
            <History size={18} aria-hidden />
          </IconAction>
          <IconAction label={`${t("webhooks.test")} ${h.name}`} title={t("webhooks.test")} onClick={() => void test(h)} testId="webhook-test">
            <Send size={18} aria-hidden />
          </IconAction>
          <IconAction label={`${t("webhooks.regenerate")} ${h.name}`} title={t("webhooks.regenerate")} onClick={() => setRenewing(h)} testId="webhook-regenerate">
            <KeyRound size={18} aria-hidden />
          </IconAction>
        </>
      )}
    >
      <WebhookDialog open={page.open} record={page.record} onClose={page.close} onCreated={showCreatedSecret} />
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
      <DeliveriesDialog webhook={logOf} onClose={() => setLogOf(null)} />
      <ConfirmDialog
        open={!!renewing}
        title={t("webhooks.regenerate")}
        message={t("webhooks.regenerateConfirm")}
        busy={action.busy}
        onConfirm={() => renewing && void renew(renewing)}
        onClose={() => setRenewing(null)}
      />
    </CrudListPage>
  );
}
