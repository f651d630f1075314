/**
 * The webhook's secret, shown once (after a create or a regenerate): read-only, with a copy button; closing it
 * forgets it (the API never answers it again).
 */
import { Button, Flex, Text, TextField } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { Dialog } from "../../ui/Dialog.tsx";
import { useAction } from "../../ui/kit/index.ts";

export function SecretDialog(props: { secret: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const action = useAction();
  const secret = props.secret ?? "";
  return (
    <Dialog
      open={!!props.secret}
      title={t("webhooks.secretTitle")}
      onClose={props.onClose}
      footer={
        <Button variation="primary" onClick={props.onClose} data-testid="webhook-secret-close">
          {t("webhooks.close")}
        </Button>
      }
    >
      <Flex direction="column" gap="0.75rem">
        <Text variation="warning" role="note">
          {t("webhooks.secretOnce")}
        </Text>
        <Flex gap="0.5rem" alignItems="flex-end" wrap="wrap">
          <TextField flex="1 1 16rem" label={t("webhooks.secret")} value={secret} isReadOnly autoComplete="off" data-testid="webhook-secret" onFocus={(e) => e.currentTarget.select()} />
          <Button size="small" onClick={() => action.run(() => navigator.clipboard.writeText(secret), t("webhooks.copied"))} data-testid="webhook-secret-copy">
            {t("webhooks.copy")}
          </Button>
        </Flex>
      </Flex>
    </Dialog>
  );
}
