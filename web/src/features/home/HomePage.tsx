/**
 * `/`: sends the user to the first page of their side menu (the dashboard is not part of this build);
 * when they have none yet, shows a short welcome.
 */
import { Flex, Heading, Text } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { Navigate } from "react-router-dom";
import { usePlanFlags } from "../../api/company.ts";
import { useSession } from "../../api/session.ts";
import { visibleMenu } from "../../layout/AppShell.tsx";

export function HomePage() {
  const { t } = useTranslation();
  const session = useSession()!;
  const plan = usePlanFlags(session.user.companyId);
  const first = visibleMenu(session.user, plan.data)[0];
  if (first) return <Navigate to={first.menu!.path} replace />;
  return (
    <Flex direction="column" gap="0.5rem" padding="2rem">
      <Heading level={2}>{t("shell.welcomeTitle")}</Heading>
      <Text>{t("shell.welcomeText")}</Text>
    </Flex>
  );
}
