/**
 * /campaigns on the kit's list page: search by name (500 ms debounce), infinite scroll, a table of name, status,
 * connection-free summary (delivered / valid), scheduled date; row actions: report, cancel (while Em Andamento),
 * restart (while Cancelada), edit (a read-only dialog when not editable), delete. Live through
 * `company-{id}-campaign`. Cancel and restart failures show the error's message as an error toast.
 */
import { Badge, Button, Flex, TableCell, TableRow } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { fromPages, IconAction, ListPage, RowActions, useAction, useCrudPage, useListSearch } from "../../ui/kit/index.ts";
import { type Campaign, cancelCampaign, restartCampaign, useCampaignMutations, useCampaignPages } from "./api.ts";
import { CampaignDialog } from "./CampaignDialog.tsx";

const statusVariation = { INATIVA: undefined, PROGRAMADA: "info", EM_ANDAMENTO: "warning", CANCELADA: "error", FINALIZADA: "success" } as const;

/** A campaign's status badge (with the pause reason, when it has one). */
export function CampaignStatus({ c }: { c: Pick<Campaign, "status" | "pauseReason"> }) {
  const { t } = useTranslation();
  return (
    <Flex direction="column" gap="0.25rem" alignItems="flex-start">
      <Badge size="small" variation={statusVariation[c.status]} data-testid="campaign-status">
        {t(`campaigns.${c.status}`)}
      </Badge>
      {c.pauseReason && <small data-testid="campaign-pause-reason">{t(`errors.${c.pauseReason}`)}</small>}
    </Flex>
  );
}

export function CampaignsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const search = useListSearch(1);
  const list = fromPages(useCampaignPages(search.term), "records");
  const page = useCrudPage<Campaign>(useCampaignMutations().remove, t("campaigns.deleted"));
  const { run } = useAction();
  const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : "");
  return (
    <ListPage
      id="campaigns"
      title={t("campaigns.title")}
      countText={list.count === undefined ? undefined : t("campaigns.count", { count: list.count })}
      search={search}
      searchPlaceholder={t("campaigns.searchPlaceholder")}
      tools={
        <Flex gap="0.5rem">
          <Button size="small" onClick={() => navigate("/campaigns-config")} data-testid="campaigns-settings">
            {t("campaigns.settings")}
          </Button>
          <Button variation="primary" size="small" onClick={() => page.add()} data-testid="campaigns-add">
            {t("campaigns.add")}
          </Button>
        </Flex>
      }
      list={list}
      columns={[
        { label: t("campaigns.name") },
        { label: t("campaigns.status") },
        { label: t("campaigns.progress"), className: "hide-narrow" },
        { label: t("campaigns.scheduledAt"), className: "hide-narrow" },
        { label: t("common.actions"), className: "col-actions" },
      ]}
      row={(c) => (
        <TableRow key={c.id} data-testid="campaign-row" data-campaign-id={c.id}>
          <TableCell>
            <strong>{c.name}</strong>
          </TableCell>
          <TableCell>
            <CampaignStatus c={c} />
          </TableCell>
          <TableCell className="hide-narrow">{t("campaigns.progressOf", { delivered: c.delivered, valid: c.valid })}</TableCell>
          <TableCell className="hide-narrow">{date(c.scheduledAt)}</TableCell>
          <TableCell className="col-actions">
            <Flex gap="0.25rem" justifyContent="flex-end" wrap="wrap">
              <Button size="small" variation="link" onClick={() => navigate(`/campaign/${c.id}/report`)} data-testid="campaign-report" aria-label={`${t("campaigns.report")}: ${c.name}`}>
                {t("campaigns.report")}
              </Button>
              {c.status === "EM_ANDAMENTO" && (
                <IconAction label={`${t("campaigns.cancel")}: ${c.name}`} testId="campaign-cancel" onClick={() => void run(() => cancelCampaign(c.id), t("campaigns.canceled"))}>
                  ⏹
                </IconAction>
              )}
              {c.status === "CANCELADA" && (
                <IconAction label={`${t("campaigns.restart")}: ${c.name}`} testId="campaign-restart" onClick={() => void run(() => restartCampaign(c.id), t("campaigns.restarted"))}>
                  ↻
                </IconAction>
              )}
              <RowActions name={c.name} onEdit={() => page.edit(c)} onDelete={c.status === "EM_ANDAMENTO" ? undefined : () => page.ask(c)} testIdPrefix="campaign" />
            </Flex>
          </TableCell>
        </TableRow>
      )}
    >
      <CampaignDialog open={page.open} record={page.record} onClose={page.close} />
      {page.confirmDialog}
    </ListPage>
  );
}
