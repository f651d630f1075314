/**
 * /queue-integration (docs/product/integrations.md) on the kit's CRUD list page: the title with the count of loaded
 * items, search (back to page 1), infinite scroll, a table of type (its icon), id and name with edit and delete
 * actions; the add/edit dialog; live through `company-{id}-queueIntegration`.
 */
import { Bot, MessagesSquare, Webhook, Workflow } from "lucide-react";
import { useTranslation } from "react-i18next";
import { CrudListPage, useCrudList } from "../../ui/kit/index.ts";
import { type Integration, useIntegrationMutations, useIntegrationPages } from "./api.ts";
import { QueueIntegrationDialog } from "./QueueIntegrationDialog.tsx";

const ICONS = { typebot: Bot, n8n: Workflow, webhook: Webhook, dialogflow: MessagesSquare } as const;

/** The type's icon with its name for assistive technology. */
export function IntegrationTypeIcon({ type }: { type: Integration["type"] }) {
  const { t } = useTranslation();
  const Icon = ICONS[type];
  return (
    <span className="integration-type" title={t(`queueIntegrations.types.${type}`)} data-testid="integration-type">
      <Icon size={20} aria-hidden="true" />
      <span className="sr-only">{t(`queueIntegrations.types.${type}`)}</span>
    </span>
  );
}

export function QueueIntegrationsPage() {
  const { t } = useTranslation();
  const { remove } = useIntegrationMutations();
  const crud = useCrudList<Integration, "queueIntegrations">("queueIntegrations", useIntegrationPages, "queueIntegrations", remove, 1);
  return (
    <CrudListPage
      ns="queueIntegrations"
      entity="integration"
      {...crud}
      columns={[
        { label: t("queueIntegrations.type"), className: "col-icon", cell: (i) => <IntegrationTypeIcon type={i.type} /> },
        { label: t("queueIntegrations.id"), className: "col-count hide-narrow", cell: (i) => i.id },
        { label: t("queueIntegrations.name"), cell: (i) => i.name },
      ]}
    >
      <QueueIntegrationDialog open={crud.page.open} record={crud.page.record} onClose={crud.page.close} />
    </CrudListPage>
  );
}
