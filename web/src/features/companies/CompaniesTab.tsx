/**
 * The super user's Empresas tab of /settings (docs/product/companies.md): the table of companies (name, email, phone,
 * plan, status, due date, recurrence) with the row colouring (due in 1 to 5 days yellow, today or past red),
 * "+Vencimento" adding the recurrence's months, edit in the company dialog and delete after confirmation, which
 * starts the background removal and shows its progress. The Cadastrar Empresa tab opens the same dialog to create.
 */
import { Button, Flex, SelectField, SwitchField, Text, TextField } from "@aws-amplify/ui-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../api/operations.ts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { useToast } from "../../ui/Toast.tsx";
import { CrudDialog, CrudListPage, rules, useCrudList, type RecordDialogProps } from "../../ui/kit/index.ts";
import { JobProgress } from "../jobs/JobProgress.tsx";
import { usePlanList } from "../plans/api.ts";
import { nextDueDate, RECURRENCE_MONTHS, type RecurrenceName as Recurrence } from "@atende/shared/companies/recurrence";
import { companiesCache, companyCalls, dueColour, type Company, useCompanyMutations, useCompanyPages } from "./api.ts";
import "./companies.css";

const RECURRENCES = Object.keys(RECURRENCE_MONTHS) as Recurrence[];
const BILLING = ["billingName", "addressZipCode", "addressStreet", "addressState", "addressCity", "addressDistrict"] as const;

const { z } = rules;
const base = {
  name: rules.name(2, 100),
  email: rules.email(),
  phone: z.string().trim().max(30, "validation.tooLong"),
  planId: z.string().min(1, "validation.required").transform(Number),
  dueDate: z.string().transform((v) => (v ? new Date(`${v}T12:00:00`).toISOString() : null)),
  recurrence: z.enum(RECURRENCES),
  status: z.boolean(),
  campaignsEnabled: z.boolean(),
  billingName: z.string().trim().max(100, "validation.tooLong"),
  addressZipCode: z.string().trim().max(20, "validation.tooLong"),
  addressStreet: z.string().trim().max(200, "validation.tooLong"),
  addressState: z.string().trim().max(50, "validation.tooLong"),
  addressCity: z.string().trim().max(100, "validation.tooLong"),
  addressDistrict: z.string().trim().max(100, "validation.tooLong"),
};
const createSchema = z.object({ ...base, password: z.string().min(5, "validation.tooShort").max(50, "validation.tooLong") });
const editSchema = z.object(base);

const dateOnly = (iso: string | null) => (iso ? iso.slice(0, 10) : "");

export function CompaniesTab() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const qc = useQueryClient();
  const [jobId, setJobId] = useState<string | null>(null);
  // Deleting starts the background removal: the row leaves at once, the job's progress shows above the table.
  const remove = useMutation({
    mutationFn: async (id: number) => setJobId((await call("DELETE /api/companies/{id}", { params: { id } })).jobId),
    onSuccess: (_r, id) => companiesCache.remove(qc, id),
  });
  const { search, list, page } = useCrudList("companies", useCompanyPages, "companies", remove);
  const [extending, setExtending] = useState<number | null>(null);
  const plans = usePlanList();
  const planName = (c: Company) => c.plan?.name ?? plans.data?.find((p) => p.id === c.planId)?.name ?? "—";

  const extend = async (c: Company) => {
    setExtending(c.id);
    try {
      const next = await companyCalls.update(c.id, { dueDate: nextDueDate(c.dueDate, c.recurrence) } as never);
      companiesCache.upsert(qc, next);
      toast.success(t("companies.extended", { date: new Date(next.dueDate!).toLocaleDateString(i18n.language) }));
    } catch (e) {
      toast.error(errorMessage(e, t));
    } finally {
      setExtending(null);
    }
  };

  return (
    <>
      <JobProgress jobId={jobId} onDone={() => companiesCache.reload(qc)} onDismiss={() => setJobId(null)} />
      <CrudListPage
        ns="companies"
        entity="company"
        page={page}
        list={list}
        search={search}
        rowAttrs={(c) => ({ "data-due": dueColour(c.dueDate) ?? "ok", className: dueColour(c.dueDate) ? `company-due-${dueColour(c.dueDate)}` : undefined })}
        actions={(c) => (
          <Button size="small" variation="link" onClick={() => void extend(c)} isLoading={extending === c.id} data-testid="company-extend" title={t("companies.extendHint", { months: RECURRENCE_MONTHS[c.recurrence] })}>
            {t("companies.extend")}
          </Button>
        )}
        columns={[
          { label: t("companies.name"), cellClassName: "nowrap", cell: (c) => <strong>{c.name}</strong> },
          { label: t("companies.email"), className: "hide-narrow", cell: (c) => c.email },
          { label: t("companies.phone"), className: "hide-narrow", cell: (c) => c.phone },
          { label: t("companies.plan"), className: "hide-narrow", cell: planName },
          { label: t("companies.status"), className: "hide-narrow", cell: (c) => (c.status ? t("companies.active") : t("companies.inactive")) },
          { label: t("companies.dueDate"), testId: "company-due", cell: (c) => (c.dueDate ? new Date(c.dueDate).toLocaleDateString(i18n.language) : "—") },
          { label: t("companies.recurrence"), className: "hide-narrow", cell: (c) => t(`companies.recurrences.${c.recurrence}`) },
        ]}
      >
        <CompanyDialog open={page.open} record={page.record} onClose={page.close} />
      </CrudListPage>
    </>
  );
}

/** The company form: every field of a company (the password only when creating: it is the first admin's). */
export function CompanyDialog(props: RecordDialogProps<Company>) {
  const { t } = useTranslation();
  const { save } = useCompanyMutations();
  const plans = usePlanList();
  const r = props.record;
  return (
    <CrudDialog
      ns="companies"
      entity="company"
      {...props}
      width="40rem"
      schema={r ? editSchema : createSchema}
      codeFields={{ ERR_EMAIL_ALREADY_EXISTS: "email" }}
      initial={() => ({
        name: r?.name ?? "",
        email: r?.email ?? "",
        phone: r?.phone ?? "",
        password: "",
        planId: r ? String(r.planId) : "",
        dueDate: dateOnly(r?.dueDate ?? null),
        recurrence: r?.recurrence ?? "MENSAL",
        status: r?.status ?? true,
        campaignsEnabled: r?.campaignsEnabled ?? false,
        ...(Object.fromEntries(BILLING.map((k) => [k, r?.[k] ?? ""])) as Record<(typeof BILLING)[number], string>),
      })}
      onSubmit={(form) => save.mutateAsync({ id: r?.id, form: form as never })}
    >
      {(f) => (
        <>
          <Flex gap="0.75rem" wrap="wrap">
            <TextField label={t("companies.name")} {...f.text("name")} isRequired flex="2 1 14rem" />
            <TextField label={t("companies.phone")} type="tel" {...f.text("phone")} flex="1 1 9rem" />
          </Flex>
          <Flex gap="0.75rem" wrap="wrap">
            <TextField label={t("companies.email")} type="email" {...f.text("email")} isRequired flex="2 1 14rem" />
            {!r && <TextField label={t("companies.password")} type="password" autoComplete="new-password" {...f.text("password")} isRequired flex="1 1 9rem" />}
          </Flex>
          <Flex gap="0.75rem" wrap="wrap">
            <SelectField label={t("companies.plan")} {...f.text("planId")} flex="1 1 10rem">
              <option value="" disabled>
                {t("companies.choosePlan")}
              </option>
              {(plans.data ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </SelectField>
            <TextField label={t("companies.dueDate")} type="date" {...f.text("dueDate")} flex="1 1 9rem" />
            <SelectField label={t("companies.recurrence")} {...f.text("recurrence")} flex="1 1 9rem">
              {RECURRENCES.map((x) => (
                <option key={x} value={x}>
                  {t(`companies.recurrences.${x}`)}
                </option>
              ))}
            </SelectField>
          </Flex>
          <Flex gap="0.5rem 1.25rem" wrap="wrap">
            <SwitchField label={t("companies.status")} name="status" isChecked={f.values.status as boolean} onChange={(e) => f.set("status", e.target.checked as never)} />
            <SwitchField label={t("companies.campaignsEnabled")} name="campaignsEnabled" isChecked={f.values.campaignsEnabled as boolean} onChange={(e) => f.set("campaignsEnabled", e.target.checked as never)} />
          </Flex>
          <Text fontWeight="bold" fontSize="small">
            {t("companies.billing")}
          </Text>
          <Flex gap="0.75rem" wrap="wrap">
            {BILLING.map((k) => (
              <TextField key={k} label={t(`companies.${k}`)} {...f.text(k)} flex="1 1 12rem" />
            ))}
          </Flex>
        </>
      )}
    </CrudDialog>
  );
}

/** The Cadastrar Empresa tab: opens the company form to create one. */
export function NewCompanyTab() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Flex direction="column" gap="1rem" alignItems="flex-start">
      <Text>{t("companies.newHint")}</Text>
      <Button variation="primary" onClick={() => setOpen(true)} data-testid="company-new">
        {t("companies.add")}
      </Button>
      <CompanyDialog open={open} record={null} onClose={() => setOpen(false)} />
    </Flex>
  );
}
