/**
 * `/`: the first feature's `home` the user may see (the dashboard, for admins); otherwise sends the user to the first
 * page of their side menu; when they have none yet, shows a short welcome.
 */
import { Flex, Heading, Text } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router-dom";
import { usePlanFlags } from "../../api/company.ts";
import { useSession } from "../../api/session.ts";
import { visibleMenu } from "../../layout/AppShell.tsx";
import { mayAccess } from "../access.tsx";
import { features } from "../registry.tsx";

export function HomePage() {
  const { t } = useTranslation();
  const session = useSession()!;
  const { search } = useLocation();
  const plan = usePlanFlags(session.user.companyId);
  const home = features.find((f) => f.home && mayAccess(session.user, f.access, plan.data));
  if (home) return home.home;
  const first = visibleMenu(session.user, plan.data).find((f) => f.menu!.path !== "/");
  // The address's query goes along (a notification's link into the top bar, e.g. `?announcement=<id>`).
  if (first) return <Navigate to={{ pathname: first.menu!.path, search }} replace />;
  return (
    <Flex direction="column" gap="0.5rem" padding="2rem">
      <Heading level={2}>{t("shell.welcomeTitle")}</Heading>
      <Text>{t("shell.welcomeText")}</Text>
    </Flex>
  );
}
