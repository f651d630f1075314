/**
 * The shell's service banner: when the API answers 5xx or not at all, 'Serviço indisponível no
 * momento. Tentando novamente…'; when only the realtime socket is lost for more than {@link SOCKET_GRACE_MS} ms,
 * 'Sem conexão em tempo real. Reconectando…'. It goes away by itself once the service answers / the socket reopens
 * (`api/health.ts`). A polite live region, so screen readers hear it too.
 */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useServiceHealth } from "../api/health.ts";

/** A socket back within this time (an ordinary reconnect) shows no banner, in ms. */
export const SOCKET_GRACE_MS = 2000;

export function ServiceBanner() {
  const { t } = useTranslation();
  const health = useServiceHealth();
  const [socketLong, setSocketLong] = useState(false);
  useEffect(() => {
    if (health.socket === "ok") {
      setSocketLong(false);
      return;
    }
    const timer = setTimeout(() => setSocketLong(true), SOCKET_GRACE_MS);
    return () => clearTimeout(timer);
  }, [health.socket]);
  const text = health.api === "down" ? t("shell.serviceUnavailable") : socketLong ? t("shell.reconnecting") : "";
  return (
    <div role="status" aria-live="polite" className={text ? "service-banner" : "sr-only"} data-testid="service-banner" data-state={text ? "down" : "ok"}>
      {text && (
        <>
          <span className="service-banner-dot" aria-hidden="true" />
          {text}
        </>
      )}
    </div>
  );
}
