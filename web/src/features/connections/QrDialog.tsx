/**
 * QR code dialog (the Connections page): shows the connection's current `qrcode` at size 256, refreshed
 * live as `whatsappSession` events update the cache, and closes itself when the QR becomes empty (paired or stopped).
 */
import { Button, Loader, Text } from "@aws-amplify/ui-react";
import { QRCodeSVG } from "qrcode.react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "../../ui/Dialog.tsx";
import { useWhatsapps } from "./api.ts";

/** Size of the rendered QR, in px. */
export const QR_SIZE = 256;

export function QrDialog({ whatsappId, onClose }: { whatsappId: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const q = useWhatsapps(whatsappId !== null);
  const w = q.data?.find((x) => x.id === whatsappId);
  const qr = w?.qrcode ?? "";
  const seen = useRef(false);
  useEffect(() => {
    if (whatsappId === null) {
      seen.current = false;
      return;
    }
    if (qr) seen.current = true;
    else if (seen.current || (w && w.status !== "qrcode" && w.status !== "OPENING")) onClose();
  }, [qr, whatsappId, w?.status]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <Dialog open={whatsappId !== null} title={t("connections.qrTitle")} onClose={onClose} width="22rem">
      <Text variation="secondary">{t("connections.qrHelp")}</Text>
      <div className="qr-box" data-testid="qr-box" data-qr={qr}>
        {qr ? <QRCodeSVG value={qr} size={QR_SIZE} marginSize={2} /> : <Loader size="large" />}
      </div>
      <Button onClick={onClose}>{t("common.close")}</Button>
    </Dialog>
  );
}
