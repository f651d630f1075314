/**
 * /subscription: the days left until the company's due date (its trial at first), the billing email, and 'Assine
 * Agora!', which opens the checkout of the company's open invoice (or says when the next one comes).
 */
import { Button, Card, Heading, Loader, Text } from "@aws-amplify/ui-react";
import { differenceInCalendarDays } from "date-fns";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { useSession } from "../../api/session.ts";
import { formatDate } from "../../ui/format.ts";
import { fromPages } from "../../ui/kit/index.ts";
import { type Invoice, useCompanyPlan, useInvoicePages } from "./api.ts";
import { CheckoutDialog } from "./CheckoutDialog.tsx";

export function SubscriptionPage() {
  const { t } = useTranslation();
  const session = useSession()!;
  const company = useCompanyPlan(session.user.companyId);
  const invoices = fromPages(useInvoicePages(), "invoices");
  const [paying, setPaying] = useState<Invoice | null>(null);
  const [noInvoice, setNoInvoice] = useState(false);
  const c = company.data;
  const open = invoices.items.find((i) => i.status !== "paid");
  const daysLeft = c?.dueDate ? Math.max(0, differenceInCalendarDays(new Date(c.dueDate), new Date())) : null;
  return (
    <section className="page" aria-labelledby="subscription-title">
      <Heading level={2} id="subscription-title">
        {t("invoices.subscriptionTitle")}
      </Heading>
      <Card variation="outlined" className="subscription-card">
        {!c ? (
          <Loader />
        ) : (
          <>
            {daysLeft === null ? (
              <Text>{t("invoices.noDueDate")}</Text>
            ) : (
              <>
                <Text fontSize="large" data-testid="trial-left">
                  {t("invoices.trialLeft", { count: daysLeft })}
                </Text>
                <Text variation="secondary" data-testid="subscription-due">
                  {t("invoices.dueOn", { date: formatDate(c.dueDate) })}
                </Text>
              </>
            )}
            <Text>
              {t("invoices.billingEmail")}: <strong data-testid="billing-email">{c.email}</strong>
            </Text>
            <div>
              <Button variation="primary" onClick={() => (open ? setPaying(open) : setNoInvoice(true))} isDisabled={invoices.pending} data-testid="subscribe-now">
                {t("invoices.subscribeNow")}
              </Button>
            </div>
            {noInvoice && !open && (
              <Text role="status" variation="secondary">
                {t("invoices.noOpenInvoice")} <Link to="/financeiro">{t("invoices.seeInvoices")}</Link>
              </Text>
            )}
          </>
        )}
      </Card>
      <CheckoutDialog invoice={paying} onClose={() => setPaying(null)} />
    </section>
  );
}
