/**
 * /campaign/{id}/report: the campaign's status (and pause reason), progress = delivered / valid numbers, the failed
 * and awaiting counts, and each number's row (contact, number, state, delivered at), 50 at a time. Live: the
 * `company-{id}-campaign` frames update the campaign and refetch the rows; once it is Finalizada the page reloads
 * after 5 s.
 */
import { Button, Card, Flex, Heading, Loader, Table, TableBody, TableCell, TableHead, TableRow } from "@aws-amplify/ui-react";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router-dom";
import { refreshShippings, useCampaign, useShippings } from "./api.ts";
import { CampaignStatus } from "./CampaignsPage.tsx";

/** The report reloads this long after the campaign ends. */
export const RELOAD_AFTER_FINISH_MS = 5000;

export function CampaignReportPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().campaignId);
  const qc = useQueryClient();
  const campaign = useCampaign(id);
  const rows = useShippings(id);
  const c = campaign.data;
  const seen = useRef<string | undefined>(undefined);
  // Each change of the campaign (a frame) refetches the rows; Finalizada reloads the page 5 s later.
  useEffect(() => {
    if (!c) return;
    if (seen.current !== undefined && seen.current !== c.updatedAt) refreshShippings(qc, id);
    seen.current = c.updatedAt;
    if (c.status !== "FINALIZADA") return;
    const timer = setTimeout(() => {
      void qc.invalidateQueries({ queryKey: ["campaigns"] });
    }, RELOAD_AFTER_FINISH_MS);
    return () => clearTimeout(timer);
  }, [c, qc, id]);
  if (campaign.isLoading) return <Loader />;
  if (!c) return <p role="alert">{t("errors.ERR_NO_CAMPAIGN_FOUND")}</p>;
  const pct = c.valid ? Math.round((c.delivered / c.valid) * 100) : 0;
  const records = rows.data?.pages.flatMap((p) => p.records) ?? [];
  const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : "");
  return (
    <section className="page" aria-label={t("campaigns.reportTitle", { name: c.name })} data-testid="campaign-report-page">
      <Flex className="page-header" alignItems="center" gap="0.75rem" wrap="wrap">
        <Button size="small" onClick={() => navigate("/campaigns")}>
          ← {t("campaigns.back")}
        </Button>
        <Heading level={2} style={{ whiteSpace: "normal" }}>
          {t("campaigns.reportTitle", { name: c.name })}
        </Heading>
      </Flex>
      <div className="page-body">
      <Card variation="outlined">
        <Flex direction="column" gap="0.5rem">
          <CampaignStatus c={c} />
          <div>
            {t("campaigns.progress")}: <strong data-testid="campaign-progress">{t("campaigns.progressOf", { delivered: c.delivered, valid: c.valid })}</strong> ({pct}%)
          </div>
          <progress max={Math.max(1, c.valid)} value={c.delivered} aria-label={t("campaigns.progress")} style={{ width: "100%" }} />
          <small>
            {t("campaigns.failedCount", { count: c.failed })} · {t("campaigns.awaitingCount", { count: c.awaiting })}
            {c.completedAt ? ` · ${t("campaigns.completedAt")}: ${date(c.completedAt)}` : ""}
          </small>
        </Flex>
      </Card>
      {records.length === 0 ? (
        <p>{rows.isLoading ? <Loader /> : t("campaigns.noShippings")}</p>
      ) : (
        <Table size="small" highlightOnHover>
          <TableHead>
            <TableRow>
              <TableCell as="th">{t("campaigns.contact")}</TableCell>
              <TableCell as="th" className="hide-narrow">{t("campaigns.number")}</TableCell>
              <TableCell as="th">{t("campaigns.shippingStatus")}</TableCell>
              <TableCell as="th" className="hide-narrow">{t("campaigns.completedAt")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {records.map((s) => (
              <TableRow key={s.seq} data-testid="shipping-row">
                <TableCell>{s.name}</TableCell>
                <TableCell className="hide-narrow">{s.number}</TableCell>
                <TableCell data-testid="shipping-status">{t(`campaigns.${s.status}`)}</TableCell>
                <TableCell className="hide-narrow">{date(s.deliveredAt)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {rows.hasNextPage && (
        <Button size="small" onClick={() => void rows.fetchNextPage()} isLoading={rows.isFetchingNextPage}>
          {t("campaigns.loadMore")}
        </Button>
      )}
      </div>
    </section>
  );
}
