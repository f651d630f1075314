/**
 * /financeiro ("Faturas"): the company's invoices (id, details, value, due date, status, PAGAR or PAGO), newest
 * first with infinite scroll; overdue unpaid rows reddish. PAGAR opens the checkout.
 */
import { Badge, Button, TableCell, TableRow } from "@aws-amplify/ui-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { formatDate } from "../../ui/format.ts";
import { fromPages, ListPage } from "../../ui/kit/index.ts";
import { type Invoice, invoiceDisplayStatus, useInvoicePages } from "./api.ts";
import { CheckoutDialog } from "./CheckoutDialog.tsx";

/** An amount in reais in the interface's language. */
export const brl = (v: number, lang: string) => new Intl.NumberFormat(lang, { style: "currency", currency: "BRL" }).format(v);

export function InvoicesPage() {
  const { t, i18n } = useTranslation();
  const list = fromPages(useInvoicePages(), "invoices");
  const [paying, setPaying] = useState<Invoice | null>(null);
  const label = { paid: t("invoices.paid"), overdue: t("invoices.overdue"), open: t("invoices.open") };
  return (
    <ListPage
      id="invoices"
      title={t("invoices.title")}
      countText={list.count === undefined ? undefined : t("invoices.count", { count: list.count })}
      tools={
        <Link to="/subscription" className="amplify-button amplify-button--small amplify-button--link">
          {t("invoices.subscriptionTitle")}
        </Link>
      }
      list={list}
      columns={[
        { label: t("invoices.id"), className: "hide-narrow" },
        { label: t("invoices.detail") },
        { label: t("invoices.value") },
        { label: t("invoices.dueDate") },
        { label: t("invoices.status"), className: "hide-narrow" },
        { label: t("invoices.action"), className: "col-actions" },
      ]}
      row={(inv) => {
        const status = invoiceDisplayStatus(inv);
        return (
          <TableRow key={inv.id} data-testid="invoice-row" data-invoice-id={inv.id} data-status={status} className={status === "overdue" ? "invoice-row-overdue" : undefined}>
            <TableCell className="hide-narrow">{inv.id}</TableCell>
            <TableCell>{inv.detail}</TableCell>
            <TableCell>{brl(inv.value, i18n.language)}</TableCell>
            <TableCell data-testid="invoice-due">{formatDate(inv.dueDate)}</TableCell>
            <TableCell className="hide-narrow">
              <Badge size="small" variation={status === "paid" ? "success" : status === "overdue" ? "error" : "info"} data-testid="invoice-status">
                {label[status]}
              </Badge>
            </TableCell>
            <TableCell className="col-actions">
              {status === "paid" ? (
                <Button size="small" isDisabled>
                  {t("invoices.paidAction")}
                </Button>
              ) : (
                <Button size="small" variation="primary" onClick={() => setPaying(inv)} data-testid="invoice-pay">
                  {t("invoices.pay")}
                </Button>
              )}
            </TableCell>
          </TableRow>
        );
      }}
    >
      {list.items.length === 0 && !list.pending && !list.error && <p className="list-hint">{t("invoices.empty")}</p>}
      <CheckoutDialog invoice={paying} onClose={() => setPaying(null)} />
    </ListPage>
  );
}
