/** Loading, error (with retry) and empty states around a page's content. */
import { Alert, Button, Flex, Loader, Text } from "@aws-amplify/ui-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../api/errors.ts";

export function PageState(props: { loading: boolean; error?: string; empty: boolean; onRetry?: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  if (props.loading)
    return (
      <Flex justifyContent="center" alignItems="center" padding="2rem" gap="0.5rem" role="status">
        <Loader size="large" />
        <Text>{t("common.loading")}</Text>
      </Flex>
    );
  if (props.error)
    return (
      <Alert variation="error" heading={t("common.loadError")} margin="1rem">
        <Flex direction="column" gap="0.5rem" alignItems="flex-start">
          <Text>{props.error}</Text>
          {props.onRetry && (
            <Button size="small" onClick={props.onRetry}>
              {t("common.retry")}
            </Button>
          )}
        </Flex>
      </Alert>
    );
  if (props.empty)
    return (
      <Text padding="2rem" textAlign="center" variation="secondary">
        {t("common.empty")}
      </Text>
    );
  return <>{props.children}</>;
}

/** The footer of an infinite list while its next page loads ('Carregando mais…'); nothing otherwise. */
export function LoadingMore({ active }: { active: boolean }) {
  const { t } = useTranslation();
  if (!active) return null;
  return (
    <Flex justifyContent="center" padding="0.75rem" gap="0.5rem" alignItems="center" role="status">
      <Loader />
      <Text fontSize="small">{t("common.loadingMore")}</Text>
    </Flex>
  );
}

/**
 * The compact states of a list inside a panel (ticket list, conversation, notifications): 'Carregando…' while
 * `pending`, the translated error with a retry button, else `empty` when given; null when the list should show.
 * `note` / `retry` are the classes of the note and of its retry button.
 */
export function ListNote(p: { pending: boolean; error?: unknown; onRetry: () => void; empty?: ReactNode; note: string; retry: string }): ReactNode {
  const { t } = useTranslation();
  if (p.pending)
    return (
      <div className={p.note} role="status">
        {t("common.loading")}
      </div>
    );
  if (p.error)
    return (
      <div className={p.note} role="alert">
        {errorMessage(p.error, t)}{" "}
        <button type="button" className={p.retry} onClick={p.onRetry}>
          {t("common.retry")}
        </button>
      </div>
    );
  return p.empty || null;
}
