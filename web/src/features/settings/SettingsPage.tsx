/**
 * /settings (docs/product/settings.md), admins: the features' tabs (`settingsTabs` slot), among them this feature's
 * own two: the Opções tab (ratings, working-hours management,
 * ignore group messages, accept calls, chatbot type, greeting on accept, message on transfer, greeting with one queue,
 * agents see closed tickets, agents see groups), each saved at once with 'Operação atualizada com sucesso.' and live
 * for other admins through `company-{id}-settings`; and the Horários tab, only while `scheduleType` is `company`: the
 * company's weekly hours and IANA time zone ('Horários atualizados com sucesso.'). The super-only tabs are not here.
 * The chosen tab is the address's `?tab=`; a tab refused to the user, opened by its address, answers with the tab's
 * own refusal (the Logo tab: 'Sem permissão para acessar!' and "/" after 0.5 s).
 */
import { Button, Flex, Heading, Loader, SelectField, Tabs, Text } from "@aws-amplify/ui-react";
import type { SettingKey } from "@atende/shared/settings/schema";
import { fullWeek } from "@atende/shared/queues/schema";
import { useEffect, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router-dom";
import { errorMessage } from "../../api/errors.ts";
import { useSession } from "../../api/session.ts";
import { useToast } from "../../ui/Toast.tsx";
import { SchedulesEditor } from "../queues/SchedulesEditor.tsx";
import type { Schedule } from "../queues/types.ts";
import { slotItems, useSlot } from "../slots.ts";
import { useCompany, useSaveCompanySchedules, useSettings, useUpdateSetting } from "./api.ts";

const ON_OFF = ["disabled", "enabled"];
/** The Opções tab, in the product's order, with each key's allowed values. */
const OPTIONS: { key: SettingKey; values: string[] }[] = [
  { key: "userRating", values: ON_OFF },
  { key: "scheduleType", values: ["disabled", "queue", "company"] },
  { key: "CheckMsgIsGroup", values: ON_OFF },
  { key: "call", values: ON_OFF },
  { key: "chatBotType", values: ["text"] },
  { key: "sendGreetingAccepted", values: ON_OFF },
  { key: "sendMsgTransfTicket", values: ON_OFF },
  { key: "sendGreetingMessageOneQueues", values: ON_OFF },
  { key: "viewclosed", values: ON_OFF },
  { key: "viewgroups", values: ON_OFF },
];

export function SettingsPage() {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const titleId = useId();
  const settings = useSettings();
  const tabs = useSlot("settingsTabs");
  const items = tabs.filter((x) => x.shown?.(settings.data ?? []) ?? true).map(({ id, labelKey, Component }) => ({ value: id, label: t(labelKey), content: <Component /> }));
  // The chosen tab is in the address (`?tab=`), so a tab can be linked to and survives a reload.
  const [params, setParams] = useSearchParams();
  const wanted = params.get("tab");
  const tab = items.some((x) => x.value === wanted) ? wanted! : (items[0]?.value ?? "");
  const setTab = (value: string) =>
    setParams(
      (p) => {
        p.set("tab", value);
        return p;
      },
      { replace: true },
    );
  // A tab the user's access refuses, opened by its address: the tab's own refusal (toast, then "/").
  const refused = wanted && !tabs.some((x) => x.id === wanted) ? slotItems("settingsTabs").find((x) => x.id === wanted)?.refused : undefined;
  useEffect(() => {
    if (!refused) return;
    toast.error(t(refused.messageKey));
    const id = setTimeout(() => navigate("/", { replace: true }), refused.redirectMs);
    return () => clearTimeout(id);
  }, [refused]); // eslint-disable-line react-hooks/exhaustive-deps
  // The chosen tab stays in view in a strip that scrolls sideways (narrow screens, opened by its address).
  useEffect(() => {
    document.querySelector(".settings-page .amplify-tabs__item[aria-selected='true']")?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [tab, settings.isLoading]);
  if (refused) return null;
  return (
    <section className="page settings-page" aria-labelledby={titleId}>
      <Flex className="page-header" alignItems="center">
        <Heading level={2} id={titleId}>
          {t("settings.title")}
        </Heading>
      </Flex>
      {settings.isLoading ? <Loader /> : <Tabs value={tab} onValueChange={setTab} items={items} spacing="relative" />}
    </section>
  );
}

/** A setting value's label: enabled/disabled, the working-hours scopes, the chatbot type, the call choice. */
function valueLabel(t: (k: string) => string, key: SettingKey, v: string): string {
  if (key === "call") return v === "enabled" ? t("settings.values.acceptCall") : t("settings.values.rejectCall");
  if (v === "enabled" || v === "disabled") return t(`settings.${v}`);
  return t(`settings.values.${v}`);
}

/** The Opções tab: each setting saved as soon as it changes. */
export function OptionsTab() {
  const { t } = useTranslation();
  const toast = useToast();
  const settings = useSettings();
  const update = useUpdateSetting();
  const value = (k: SettingKey) => settings.data?.find((s) => s.key === k)?.value ?? "";
  const change = async (key: SettingKey, v: string) => {
    try {
      await update.mutateAsync({ key, value: v });
      toast.success(t("settings.updated"));
    } catch (e) {
      toast.error(errorMessage(e, t));
    }
  };
  return (
    <div className="settings-grid" data-testid="settings-options">
      {OPTIONS.map((o) => (
        <SelectField
          key={o.key}
          label={t(`settings.keys.${o.key}`)}
          value={value(o.key)}
          onChange={(e) => void change(o.key, e.target.value)}
          isDisabled={update.isPending && update.variables?.key === o.key}
          data-testid={`setting-${o.key}`}
        >
          {o.values.map((v) => (
            <option key={v} value={v}>
              {valueLabel(t, o.key, v)}
            </option>
          ))}
        </SelectField>
      ))}
    </div>
  );
}

/** IANA zone names the browser knows (the company's zone first when missing from the list). */
function timeZones(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["America/Sao_Paulo", "UTC"];
  return all.includes(current) ? all : [current, ...all];
}

/** The Horários tab (shown while `scheduleType` is `company`): the company's weekly hours and time zone. */
export function HoursTab() {
  const { t } = useTranslation();
  const toast = useToast();
  const companyId = useSession()?.user.companyId;
  const company = useCompany(companyId);
  const save = useSaveCompanySchedules(companyId ?? 0);
  const [schedules, setSchedules] = useState<Schedule[]>([]);
  const [timezone, setTimezone] = useState("America/Sao_Paulo");
  useEffect(() => {
    if (!company.data) return;
    setSchedules(fullWeek(company.data.schedules) as Schedule[]);
    setTimezone(company.data.timezone || "America/Sao_Paulo");
  }, [company.data]);
  const zones = useMemo(() => timeZones(timezone), [timezone]);
  if (company.isLoading || !schedules.length) return <Loader />;
  const submit = async () => {
    try {
      await save.mutateAsync({ schedules, timezone });
      toast.success(t("settings.hoursUpdated"));
    } catch (e) {
      toast.error(errorMessage(e, t));
    }
  };
  return (
    <form
      className="settings-hours"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Flex direction="column" gap="1rem">
        <Text fontSize="small" color="font.secondary">
          {t("settings.hoursHint")}
        </Text>
        <SelectField label={t("settings.timezone")} value={timezone} onChange={(e) => setTimezone(e.target.value)} data-testid="company-timezone">
          {zones.map((z) => (
            <option key={z} value={z}>
              {z.replace(/_/g, " ")}
            </option>
          ))}
        </SelectField>
        <SchedulesEditor value={schedules} onChange={setSchedules} testId="company-schedules" />
        <div>
          <Button type="submit" variation="primary" isLoading={save.isPending} data-testid="save-hours">
            {t("settings.save")}
          </Button>
        </div>
      </Flex>
    </form>
  );
}
