/** Yes/no confirmation dialog; the default message is the product's 'Deseja realmente excluir este registro?'. */
import { Button, Text } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { Dialog } from "./Dialog.tsx";

export function ConfirmDialog(props: { open: boolean; title?: string; message?: string; busy?: boolean; onConfirm: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={props.open}
      title={props.title ?? t("common.confirmDeleteTitle")}
      onClose={props.onClose}
      width="26rem"
      footer={
        <>
          <Button onClick={props.onClose} data-autofocus>
            {t("common.no")}
          </Button>
          <Button variation="destructive" isLoading={props.busy} onClick={props.onConfirm}>
            {t("common.yes")}
          </Button>
        </>
      }
    >
      <Text>{props.message ?? t("common.confirmDelete")}</Text>
    </Dialog>
  );
}
