/**
 * The `<option>`s of an integration select (the queue and connection dialogs): "none" then every integration of
 * the company by name. Loads only for a company whose plan has `useIntegrations` (otherwise only "none").
 */
import { useTranslation } from "react-i18next";
import { usePlanFlags } from "../../api/company.ts";
import { useSession } from "../../api/session.ts";
import { mayAccess } from "../access.tsx";
import { ADMIN_ONLY } from "../types.ts";
import { useIntegrationChoices } from "./api.ts";

export function IntegrationOptions() {
  const { t } = useTranslation();
  const user = useSession()?.user;
  const plan = usePlanFlags(user?.companyId);
  const choices = useIntegrationChoices(!!user && mayAccess(user, { ...ADMIN_ONLY, planFlag: "useIntegrations" }, plan.data));
  return (
    <>
      <option value="">{t("queueIntegrations.none")}</option>
      {[...(choices.data ?? [])]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((i) => (
          <option key={i.id} value={i.id}>
            {i.name}
          </option>
        ))}
    </>
  );
}
