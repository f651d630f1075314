/**
 * The connection's API token in the edit dialog (admins): the server generates it, so it is shown read-only with a
 * copy button and a "new token" action (confirmed: the old token stops working at once). A new connection gets its
 * token when it is saved.
 */
import { Button, Flex, TextField } from "@aws-amplify/ui-react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { call } from "../../api/operations.ts";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { useAction } from "../../ui/kit/index.ts";
import { whatsappKeys } from "./api.ts";

export function ConnectionToken(props: { whatsappId?: number }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const id = props.whatsappId;
  // Read fresh: the list's copy follows realtime frames, which never carry the token.
  const shown = useQuery({ queryKey: [...whatsappKeys.all, id, "token"], queryFn: () => call("GET /api/whatsapp/{id}", { params: { id: id! } }), enabled: !!id });
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  if (!id) return <TextField label={t("connections.token")} value="" placeholder={t("connections.tokenOnSave")} isReadOnly />;
  const token = shown.data?.token ?? "";
  const regenerate = () =>
    action.run(async () => {
      const renewed = await call("POST /api/whatsapp/{id}/token", { params: { id } });
      qc.setQueryData([...whatsappKeys.all, id, "token"], renewed);
      setConfirming(false);
    }, t("connections.tokenRenewed"));
  return (
    <Flex gap="0.5rem" alignItems="flex-end" wrap="wrap">
      <TextField
        flex="1 1 16rem"
        label={t("connections.token")}
        value={token}
        placeholder={shown.isLoading ? t("connections.tokenLoading") : ""}
        isReadOnly
        autoComplete="off"
        data-testid="connection-token"
      />
      <Button size="small" isDisabled={!token} onClick={() => action.run(() => navigator.clipboard.writeText(token), t("connections.tokenCopied"))}>
        {t("connections.tokenCopy")}
      </Button>
      <Button size="small" isLoading={action.busy} onClick={() => setConfirming(true)}>
        {t("connections.tokenRenew")}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={t("connections.tokenRenew")}
        message={t("connections.tokenRenewConfirm")}
        busy={action.busy}
        onConfirm={() => void regenerate()}
        onClose={() => setConfirming(false)}
      />
    </Flex>
  );
}
