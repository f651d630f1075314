/**
 * The super user's Planos tab of /settings (docs/product/plans.md): the table of plans (name, users, connections,
 * queues, value in reais, features), add and edit in a dialog (name required, counts and value as numbers, the
 * feature switches), delete after 'Deseja realmente excluir este registro?' (a plan a company is on is refused with
 * the server's text).
 */
import { Badge, Flex, SwitchField, Text, TextField } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { CrudDialog, CrudListPage, fromArray, type RecordDialogProps, rules, useCrudPage } from "../../ui/kit/index.ts";
import { type Plan, usePlanList, usePlanMutations } from "./api.ts";

const FLAGS = ["useCampaigns", "useSchedules", "useInternalChat", "useExternalApi", "useKanban", "useOpenAi", "useIntegrations"] as const;
type FlagKey = (typeof FLAGS)[number];

const { z } = rules;
const money = z
  .string()
  .refine((v) => /^\d+([.,]\d{1,2})?$/.test(v.trim() || "0"), "validation.invalidNumber")
  .transform((v) => Number((v.trim() || "0").replace(",", ".")));
const schema = z.object({
  name: z.string().trim().min(1, "plans.required").max(100, "validation.tooLong"),
  users: rules.numberText(),
  connections: rules.numberText(),
  queues: rules.numberText(),
  value: money,
  useCampaigns: z.boolean(),
  useSchedules: z.boolean(),
  useInternalChat: z.boolean(),
  useExternalApi: z.boolean(),
  useKanban: z.boolean(),
  useOpenAi: z.boolean(),
  useIntegrations: z.boolean(),
});

const brl = (v: number, lang: string) => new Intl.NumberFormat(lang, { style: "currency", currency: "BRL" }).format(v);

export function PlansTab() {
  const { t, i18n } = useTranslation();
  const list = fromArray(usePlanList());
  const page = useCrudPage<Plan>(usePlanMutations().remove, t("plans.deleted"), undefined, t("plans.deleteFailed"));
  return (
    <CrudListPage
      ns="plans"
      entity="plan"
      page={page}
      list={list}
      columns={[
        { label: t("plans.name"), cellClassName: "nowrap", cell: (p) => <strong>{p.name}</strong> },
        { label: t("plans.users"), cell: (p) => p.users },
        { label: t("plans.connections"), className: "hide-narrow", cell: (p) => p.connections },
        { label: t("plans.queues"), className: "hide-narrow", cell: (p) => p.queues },
        { label: t("plans.price"), cell: (p) => brl(p.value, i18n.language) },
        {
          label: t("plans.features"),
          className: "hide-narrow",
          cell: (p) => (
            <Flex gap="0.25rem" wrap="wrap">
              {FLAGS.filter((f) => p[f]).map((f) => (
                <Badge key={f} size="small">
                  {t(`plans.${f}`)}
                </Badge>
              ))}
            </Flex>
          ),
        },
      ]}
    >
      <PlanDialog open={page.open} record={page.record} onClose={page.close} />
    </CrudListPage>
  );
}

function PlanDialog(props: RecordDialogProps<Plan>) {
  const { t } = useTranslation();
  const { save } = usePlanMutations();
  const r = props.record;
  return (
    <CrudDialog
      ns="plans"
      entity="plan"
      {...props}
      width="34rem"
      schema={schema}
      codeFields={{ ERR_PLAN_NAME_ALREADY_EXISTS: "name" }}
      initial={() => ({
        name: r?.name ?? "",
        users: String(r?.users ?? 1),
        connections: String(r?.connections ?? 1),
        queues: String(r?.queues ?? 1),
        value: String(r?.value ?? 0),
        ...(Object.fromEntries(FLAGS.map((f) => [f, r?.[f] ?? false])) as Record<FlagKey, boolean>),
      })}
      onSubmit={(form) => save.mutateAsync({ id: r?.id, form })}
    >
      {(f) => (
        <>
          <TextField label={t("plans.name")} {...f.text("name")} isRequired />
          <Flex gap="0.75rem" wrap="wrap">
            <TextField label={t("plans.users")} inputMode="numeric" {...f.text("users")} flex="1 1 6rem" />
            <TextField label={t("plans.connections")} inputMode="numeric" {...f.text("connections")} flex="1 1 6rem" />
            <TextField label={t("plans.queues")} inputMode="numeric" {...f.text("queues")} flex="1 1 6rem" />
            <TextField label={t("plans.value")} inputMode="decimal" {...f.text("value")} flex="1 1 7rem" />
          </Flex>
          <Text fontWeight="bold" fontSize="small">
            {t("plans.features")}
          </Text>
          <Flex gap="0.5rem 1.25rem" wrap="wrap">
            {FLAGS.map((k) => (
              <SwitchField key={k} label={t(`plans.${k}`)} name={k} isChecked={f.values[k]} onChange={(e) => f.set(k, e.target.checked)} />
            ))}
          </Flex>
        </>
      )}
    </CrudDialog>
  );
}
