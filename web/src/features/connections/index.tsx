/**
 * Connections area (docs/product/connections.md; admin): /connections, its texts, the `company-{id}-whatsapp`
 * and `company-{id}-whatsappSession` frames (table, QR dialog, badge), and the menu's warning badge shown 2 s after any
 * connection enters qrcode, PAIRING, DISCONNECTED, TIMEOUT or OPENING.
 */
import { TriangleAlert } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import "../tickets/attendance.css";
import { crudRealtime } from "../../ui/kit/crud.ts";
import { lazyPage } from "../lazy.tsx";
import { ADMIN_ONLY, type Feature } from "../types.ts";
import { upsertWhatsapp, useWhatsapps, WARNING_STATUSES, whatsappCache } from "./api.ts";
import { connectionsTexts } from "./i18n.ts";

const ConnectionsPage = lazyPage(() => import("./ConnectionsPage.tsx"), "ConnectionsPage");

/** Delay before the warning badge shows (a product constant, 2 s), in ms. */
export const BADGE_DELAY_MS = 2000;

function ConnectionsBadge() {
  const { t } = useTranslation();
  const q = useWhatsapps();
  const warn = (q.data ?? []).some((w) => WARNING_STATUSES.includes(w.status));
  const [show, setShow] = useState(false);
  useEffect(() => {
    if (!warn) {
      setShow(false);
      return;
    }
    const id = setTimeout(() => setShow(true), BADGE_DELAY_MS);
    return () => clearTimeout(id);
  }, [warn]);
  return show ? (
    <span className="menu-warning" role="img" aria-label={t("connections.warning")} title={t("connections.warning")} data-testid="connections-warning">
      <TriangleAlert size={14} aria-hidden="true" />
    </span>
  ) : null;
}

export const connectionsFeature: Feature = {
  id: "connections",
  access: ADMIN_ONLY,
  routes: [{ path: "/connections", element: <ConnectionsPage /> }],
  menu: { path: "/connections", labelKey: "menu.connections", group: "administration", order: 10, Badge: ConnectionsBadge },
  texts: { connections: connectionsTexts },
  realtime: {
    whatsapp: crudRealtime("whatsapp", whatsappCache),
    whatsappSession: (data, { queryClient }) => upsertWhatsapp(queryClient, data.session),
  },
};
