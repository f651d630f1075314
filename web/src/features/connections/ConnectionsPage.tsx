/**
 * /connections (attendance.md §2 Connections page, §4 Connection status; admin): table of name, number, status,
 * session actions, last update (dd/MM/yy HH:mm), default flag and actions; add/edit dialog; QR dialog; restart all;
 * per status: qrcode → QR code, DISCONNECTED → try again + new QR, CONNECTED/PAIRING/TIMEOUT → disconnect,
 * OPENING → a disabled "connecting" button. Delete after 'Deseja realmente excluir este registro?'. Live through the
 * realtime table (`whatsapp`, `whatsappSession`).
 */
import { Button, Flex, Heading, Loader, Table, TableBody, TableCell, TableHead, TableRow } from "@aws-amplify/ui-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { PageState } from "../../ui/PageState.tsx";
import { HeaderCells } from "../../ui/HeaderCells.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { formatPhone, shortDateTime } from "../tickets/format.ts";
import { sessionActions, useDeleteWhatsapp, useWhatsapps, type Whatsapp } from "./api.ts";
import { ConnectionDialog } from "./ConnectionDialog.tsx";
import { QrDialog } from "./QrDialog.tsx";

function StatusChip({ status }: { status: string }) {
  const { t } = useTranslation();
  const cls = status === "CONNECTED" ? "online" : status === "DISCONNECTED" || status === "TIMEOUT" ? "bad" : "warn";
  return (
    <span className="status-chip" data-testid="connection-status" data-status={status}>
      {status === "OPENING" ? <Loader size="small" /> : <span className={`status-dot ${cls}`} aria-hidden="true" />}
      {t(`connections.status.${status}`, { defaultValue: status })}
    </span>
  );
}

export function ConnectionsPage() {
  const { t } = useTranslation();
  const toast = useToast();
  const q = useWhatsapps();
  const del = useDeleteWhatsapp();
  const [editing, setEditing] = useState<Whatsapp | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [qrFor, setQrFor] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Whatsapp | null>(null);
  const [disconnecting, setDisconnecting] = useState<Whatsapp | null>(null);
  const list = q.data ?? [];

  const run = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (e) {
      toast.error(errorMessage(e, t));
    }
  };

  const sessionButtons = (w: Whatsapp) => {
    switch (w.status) {
      case "qrcode":
        return (
          <Button size="small" variation="primary" onClick={() => setQrFor(w.id)} data-testid="qr-button">
            {t("connections.qrcode")}
          </Button>
        );
      case "DISCONNECTED":
        return (
          <>
            <Button size="small" onClick={() => void run(() => sessionActions.start(w.id))}>
              {t("connections.tryAgain")}
            </Button>
            <Button size="small" onClick={() => void run(() => sessionActions.newQr(w.id))}>
              {t("connections.newQr")}
            </Button>
          </>
        );
      case "OPENING":
        return (
          <Button size="small" isDisabled isLoading loadingText={t("connections.connecting")}>
            {t("connections.connecting")}
          </Button>
        );
      default:
        return (
          <Button size="small" onClick={() => setDisconnecting(w)}>
            {t("connections.disconnect")}
          </Button>
        );
    }
  };

  return (
    <section className="page" aria-labelledby="connections-title">
      <Flex className="page-header" alignItems="center" justifyContent="space-between" wrap="wrap" gap="0.75rem">
        <Heading level={2} id="connections-title">
          {t("connections.title")}
        </Heading>
        <Flex gap="0.5rem" wrap="wrap">
          <Button size="small" onClick={() => void run(async () => (await sessionActions.restartAll(), toast.success(t("connections.restarted"))))}>
            {t("connections.restartAll")}
          </Button>
          <Button
            size="small"
            variation="primary"
            data-testid="add-connection"
            onClick={() => {
              setEditing(null);
              setDialogOpen(true);
            }}
          >
            {t("connections.add")}
          </Button>
        </Flex>
      </Flex>
      <div className="table-scroll">
        <PageState loading={q.isPending} error={q.isError ? errorMessage(q.error, t) : undefined} empty={!q.isPending && !list.length} onRetry={() => void q.refetch()}>
          <Table size="small" highlightOnHover className="data-table" aria-labelledby="connections-title">
            <TableHead>
              <TableRow>
                <HeaderCells
                  columns={[
                    { label: t("connections.name") },
                    { label: t("connections.number"), className: "hide-narrow" },
                    { label: t("connections.statusCol") },
                    { label: t("connections.session") },
                    { label: t("connections.lastUpdate"), className: "hide-narrow" },
                    { label: t("connections.default"), className: "hide-narrow" },
                    { label: t("common.actions"), className: "col-actions" },
                  ]}
                />
              </TableRow>
            </TableHead>
            <TableBody>
              {list.map((w) => (
                <TableRow key={w.id} data-testid="connection-row" data-connection-id={w.id}>
                  <TableCell className="cell-wrap">
                    {w.name}
                    <span className="sub-line show-narrow">{formatPhone(w.number)}</span>
                  </TableCell>
                  <TableCell className="hide-narrow">{formatPhone(w.number)}</TableCell>
                  <TableCell>
                    <StatusChip status={w.status} />
                  </TableCell>
                  <TableCell>
                    <div className="session-actions">{sessionButtons(w)}</div>
                  </TableCell>
                  <TableCell className="hide-narrow">{shortDateTime(w.updatedAt)}</TableCell>
                  <TableCell className="hide-narrow">{w.isDefault ? <span aria-label={t("connections.default")}>✔</span> : ""}</TableCell>
                  <TableCell className="col-actions">
                    <Button
                      size="small"
                      variation="link"
                      aria-label={`${t("common.edit")} ${w.name}`}
                      onClick={() => {
                        setEditing(w);
                        setDialogOpen(true);
                      }}
                    >
                      ✎
                    </Button>
                    <Button size="small" variation="link" aria-label={`${t("common.delete")} ${w.name}`} onClick={() => setDeleting(w)}>
                      🗑
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </PageState>
      </div>
      <ConnectionDialog open={dialogOpen} whatsapp={editing} onClose={() => setDialogOpen(false)} />
      <QrDialog whatsappId={qrFor} onClose={() => setQrFor(null)} />
      <ConfirmDialog
        open={!!deleting}
        busy={del.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          try {
            await del.mutateAsync(deleting.id);
            toast.success(t("connections.deleted"));
          } catch (e) {
            toast.error(errorMessage(e, t));
          }
          setDeleting(null);
        }}
      />
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
    </section>
  );
}
