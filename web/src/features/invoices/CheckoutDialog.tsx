/**
 * The checkout of one invoice: Dados (name, address, city, zip code, country; the spec's required messages),
 * Personalizar (the plan the invoice bills), Revisar (PAGAR), then the Pix screen ('Assinatura realizada com sucesso!,
 * aguardando a realização do pagamento'): the BR Code as a QR code and as "copia e cola". When `company-{id}-payment` CONCLUIDA arrives for this invoice: the success toast with the new due
 * date, and / after 4 s.
 */
import { Button, Flex, Loader, Text, TextField } from "@aws-amplify/ui-react";
import { QRCodeSVG } from "qrcode.react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { z } from "zod";
import { errorMessage } from "../../api/errors.ts";
import { useSession } from "../../api/session.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { formatDate } from "../../ui/format.ts";
import { useToast } from "../../ui/Toast.tsx";
import { brl, type Invoice, PAYMENT_EVENT, type PaymentFrame, paymentEvents, payInvoice, type PixCharge, useCompanyPlan } from "./api.ts";

/** After the payment's toast, the checkout goes to / after this many ms. */
export const REDIRECT_AFTER_PAYMENT_MS = 4000;

const FIELDS = ["firstName", "lastName", "address2", "city", "state", "zipcode", "country"] as const;
type Data = Record<(typeof FIELDS)[number], string>;
const EMPTY: Data = { firstName: "", lastName: "", address2: "", city: "", state: "", zipcode: "", country: "Brasil" };

const DataSchema = z.object({
  firstName: z.string().trim().min(1, "firstNameRequired"),
  address2: z.string().trim().min(1, "addressRequired"),
  city: z.string().trim().min(1, "cityRequired"),
  zipcode: z.string().trim().min(1, "zipcodeRequired"),
  country: z.string().trim().min(1, "countryRequired"),
});

export function CheckoutDialog({ invoice, onClose }: { invoice: Invoice | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const session = useSession()!;
  const company = useCompanyPlan(session.user.companyId);
  const [step, setStep] = useState(0);
  const [data, setData] = useState<Data>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Data, string>>>({});
  const [busy, setBusy] = useState(false);
  const [charge, setCharge] = useState<PixCharge | null>(null);

  useEffect(() => {
    if (!invoice) return;
    setStep(0);
    setErrors({});
    setCharge(null);
  }, [invoice?.id]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (!invoice) return;
    const onPaid = (e: Event) => {
      const frame = (e as CustomEvent<PaymentFrame>).detail;
      if (frame.invoiceId !== invoice.id) return;
      toast.success(t("invoices.renewed", { date: formatDate(frame.company.dueDate) }), { durationMs: REDIRECT_AFTER_PAYMENT_MS });
      setTimeout(() => {
        onClose();
        navigate("/");
      }, REDIRECT_AFTER_PAYMENT_MS);
    };
    paymentEvents.addEventListener(PAYMENT_EVENT, onPaid);
    return () => paymentEvents.removeEventListener(PAYMENT_EVENT, onPaid);
    // The redirect goes on even if the dialog closes meanwhile.
  }, [invoice?.id]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!invoice) return null;
  const plan = company.data?.plan;

  const nextFromData = () => {
    const r = DataSchema.safeParse(data);
    if (r.success) {
      setErrors({});
      setStep(1);
      return;
    }
    const out: Partial<Record<keyof Data, string>> = {};
    for (const issue of r.error.issues) out[issue.path[0] as keyof Data] ??= t(`invoices.${issue.message}`);
    setErrors(out);
  };

  const pay = async () => {
    setBusy(true);
    try {
      const body = { invoiceId: invoice.id, ...Object.fromEntries(FIELDS.map((k) => [k, data[k].trim() || undefined])) };
      setCharge(await payInvoice(body as Parameters<typeof payInvoice>[0]));
      toast.success(t("invoices.subscribed"));
      setStep(3);
    } catch (e) {
      toast.error(errorMessage(e, t));
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!charge) return;
    await navigator.clipboard?.writeText(charge.qrcode.qrcode).catch(() => undefined);
    toast.info(t("invoices.copied"));
  };

  const steps = [t("invoices.stepData"), t("invoices.stepPlan"), t("invoices.stepReview")];
  const footer =
    step === 3 ? (
      <Button onClick={onClose}>{t("common.close")}</Button>
    ) : (
      <Flex gap="0.5rem" justifyContent="flex-end">
        {step > 0 ? <Button onClick={() => setStep(step - 1)}>{t("invoices.back")}</Button> : <Button onClick={onClose}>{t("common.cancel")}</Button>}
        {step === 0 && (
          <Button variation="primary" onClick={nextFromData} data-testid="checkout-next">
            {t("invoices.next")}
          </Button>
        )}
        {step === 1 && (
          <Button variation="primary" onClick={() => setStep(2)} data-testid="checkout-next">
            {t("invoices.next")}
          </Button>
        )}
        {step === 2 && (
          <Button variation="primary" onClick={pay} isLoading={busy} data-testid="checkout-pay">
            {t("invoices.pay")}
          </Button>
        )}
      </Flex>
    );

  return (
    <Dialog open title={step === 3 ? t("invoices.pixTitle") : t("invoices.checkoutTitle")} onClose={onClose} footer={footer} width="34rem">
      {step < 3 && (
        <ol className="checkout-steps" aria-label={t("invoices.stepOf", { n: step + 1 })}>
          {steps.map((s, i) => (
            <li key={s} aria-current={i === step ? "step" : undefined}>
              {s}
            </li>
          ))}
        </ol>
      )}
      {step === 0 && (
        <div className="checkout-grid">
          {FIELDS.map((k) => (
            <TextField
              key={k}
              label={t(`invoices.${k}`)}
              name={k}
              value={data[k]}
              isRequired={k in DataSchema.shape}
              hasError={!!errors[k]}
              errorMessage={errors[k]}
              onChange={(e) => setData({ ...data, [k]: e.target.value })}
            />
          ))}
        </div>
      )}
      {step === 1 && (
        <dl className="checkout-summary" data-testid="checkout-plan">
          <dt>{t("invoices.plan")}</dt>
          <dd>{invoice.detail}</dd>
          {plan && (
            <>
              <dt>{t("invoices.users")}</dt>
              <dd>{plan.users}</dd>
              <dt>{t("invoices.connections")}</dt>
              <dd>{plan.connections}</dd>
              <dt>{t("invoices.queues")}</dt>
              <dd>{plan.queues}</dd>
            </>
          )}
          <dt>{t("invoices.value")}</dt>
          <dd>{brl(invoice.value, i18n.language)}</dd>
        </dl>
      )}
      {step === 2 && (
        <dl className="checkout-summary" data-testid="checkout-review">
          <dt>{t("invoices.firstName")}</dt>
          <dd>{[data.firstName, data.lastName].filter(Boolean).join(" ")}</dd>
          <dt>{t("invoices.address2")}</dt>
          <dd>{[data.address2, data.city, data.state, data.zipcode, data.country].filter(Boolean).join(", ")}</dd>
          <dt>{t("invoices.plan")}</dt>
          <dd>{invoice.detail}</dd>
          <dt>{t("invoices.dueDate")}</dt>
          <dd>{formatDate(invoice.dueDate)}</dd>
          <dt>{t("invoices.total")}</dt>
          <dd>
            <strong>{brl(invoice.value, i18n.language)}</strong>
          </dd>
        </dl>
      )}
      {step === 3 && charge && (
        <Flex direction="column" gap="0.75rem">
          <Text variation="secondary">{t("invoices.pixHelp")}</Text>
          <div className="pix-box" data-testid="pix-qr">
            <QRCodeSVG value={charge.qrcode.qrcode} size={224} marginSize={2} title={t("invoices.pixTitle")} />
          </div>
          <Text fontWeight="bold">{brl(Number(charge.valor.original), i18n.language)}</Text>
          <TextField label={t("invoices.pixCode")} value={charge.qrcode.qrcode} isReadOnly className="pix-code" data-testid="pix-code" />
          <Flex alignItems="center" gap="0.5rem" justifyContent="space-between" wrap="wrap">
            <Button size="small" onClick={copy}>
              {t("invoices.copy")}
            </Button>
            <Flex alignItems="center" gap="0.5rem" role="status">
              <Loader size="small" />
              <Text fontSize="small">{t("invoices.waiting")}</Text>
            </Flex>
          </Flex>
        </Flex>
      )}
    </Dialog>
  );
}
