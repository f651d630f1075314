/**
 * /connections (docs/product/connections.md; admin) on the kit's CRUD list page: table of name, number, status,
 * session actions, last update (dd/MM/yy HH:mm), default flag and actions; add/edit dialog; QR dialog; restart all;
 * per status: qrcode → QR code, DISCONNECTED → try again + new QR, CONNECTED/PAIRING/TIMEOUT → disconnect,
 * OPENING → a disabled "connecting" button. Delete after 'Deseja realmente excluir este registro?'. Live through the
 * realtime table (`whatsapp`, `whatsappSession`).
 */
import { Check } from "lucide-react";
import { Button, Loader } from "@aws-amplify/ui-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { CrudListPage, fromArray, useAction, useCrudPage } from "../../ui/kit/index.ts";
import { useToast } from "../../ui/Toast.tsx";
import { formatPhone, shortDateTime } from "../tickets/format.ts";
import { sessionActions, useWhatsappMutations, useWhatsapps, type Whatsapp } from "./api.ts";
import { ConnectionDialog } from "./ConnectionDialog.tsx";
import "./connections.css";
import { QrDialog } from "./QrDialog.tsx";

/** The connection's status; `narrow`: the copy under the name on narrow screens (no test id: one chip per row is shown). */
function StatusChip({ status, narrow }: { status: string; narrow?: boolean }) {
  const { t } = useTranslation();
  const cls = status === "CONNECTED" ? "online" : status === "DISCONNECTED" || status === "TIMEOUT" ? "bad" : "warn";
  return (
    <span className="status-chip" data-testid={narrow ? undefined : "connection-status"} data-status={status}>
      {status === "OPENING" ? <Loader size="small" /> : <span className={`status-dot ${cls}`} aria-hidden="true" />}
      {t(`connections.status.${status}`, { defaultValue: status })}
    </span>
  );
}

export function ConnectionsPage() {
  const { t } = useTranslation();
  const toast = useToast();
  const list = fromArray(useWhatsapps());
  const { remove } = useWhatsappMutations();
  const page = useCrudPage<Whatsapp>(remove, t("connections.deleted"));
  const [qrFor, setQrFor] = useState<number | null>(null);
  const [disconnecting, setDisconnecting] = useState<Whatsapp | null>(null);

  const { run } = useAction();

  const sessionButtons = (w: Whatsapp) => {
    switch (w.status) {
      case "qrcode":
        return (
          <Button key="qr" size="small" variation="primary" onClick={() => setQrFor(w.id)} data-testid="qr-button">
            {t("connections.qrcode")}
          </Button>
        );
      case "DISCONNECTED":
        return (
          <>
            <Button key="start" size="small" onClick={() => void run(() => sessionActions.start(w.id))}>
              {t("connections.tryAgain")}
            </Button>
            <Button key="new-qr" size="small" onClick={() => void run(() => sessionActions.newQr(w.id))}>
              {t("connections.newQr")}
            </Button>
          </>
        );
      case "OPENING":
        return (
          <Button key="connecting" size="small" isDisabled isLoading loadingText={t("connections.connecting")}>
            {t("connections.connecting")}
          </Button>
        );
      default:
        return (
          <Button key="disconnect" size="small" onClick={() => setDisconnecting(w)}>
            {t("connections.disconnect")}
          </Button>
        );
    }
  };

  return (
    <CrudListPage
      ns="connections"
      entity="connection"
      page={page}
      addTestId="add-connection"
      extraTools={
        <Button size="small" onClick={() =>
            void run(async () => {
              await sessionActions.restartAll();
              toast.success(t("connections.restarted"));
            })
          }>
          {t("connections.restartAll")}
        </Button>
      }
      list={list}
      tableClassName="connections-table"
      columns={[
        {
          label: t("connections.name"),
          cellClassName: "col-name",
          cell: (w) => (
            <>
              {w.name}
              <span className="sub-line show-narrow nowrap">{formatPhone(w.number)}</span>
              <span className="sub-line show-narrow nowrap">
                <StatusChip status={w.status} narrow />
              </span>
            </>
          ),
        },
        { label: t("connections.number"), className: "hide-narrow", cellClassName: "nowrap", cell: (w) => formatPhone(w.number) },
        { label: t("connections.statusCol"), className: "hide-narrow", cell: (w) => <StatusChip status={w.status} /> },
        { label: t("connections.session"), cell: (w) => <div className="session-actions">{sessionButtons(w)}</div> },
        { label: t("connections.lastUpdate"), className: "hide-narrow", cell: (w) => shortDateTime(w.updatedAt) },
        { label: t("connections.default"), className: "hide-narrow", cell: (w) => (w.isDefault ? <Check size={16} role="img" aria-label={t("connections.default")} /> : "") },
      ]}
    >
      <ConnectionDialog open={page.open} record={page.record} onClose={page.close} />
      <QrDialog whatsappId={qrFor} onClose={() => setQrFor(null)} />
      <ConfirmDialog
        open={!!disconnecting}
        title={t("connections.disconnect")}
        message={t("connections.disconnectConfirm")}
        onClose={() => setDisconnecting(null)}
        onConfirm={async () => {
          if (disconnecting) await run(() => sessionActions.disconnect(disconnecting.id));
          setDisconnecting(null);
        }}
      />
    </CrudListPage>
  );
}
