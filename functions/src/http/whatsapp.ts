/**
 * Connections area (docs/product/connections.md): thin handlers over
 * `@atende/shared/whatsapp/service`. The company always comes from the verified token.
 * Contract: `shared/src/whatsapp/contract.ts`.
 */
import { can } from "@atende/shared/access/permissions";
import type { AuthContext } from "@atende/shared/auth/tokens";
import {
  createWhatsapp,
  deleteWhatsapp,
  disconnectWhatsappSession,
  listWhatsapps,
  renewWhatsappQr,
  restartWhatsappSessions,
  showWhatsapp,
  startWhatsappSession,
  updateWhatsapp,
  type Caller,
} from "@atende/shared/whatsapp/service";
import { answering, areaHandler } from "./core/http.ts";

const caller = (auth: AuthContext): Caller => ({ companyId: auth.companyId, admin: can(auth, "secrets:view") });

export const handler = areaHandler("whatsapp", {
  "GET /api/whatsapp": async ({ auth }) => listWhatsapps(caller(auth)),
  "POST /api/whatsapp": async ({ auth, body }) => createWhatsapp(caller(auth), body),
  "GET /api/whatsapp/{id}": async ({ auth, params }) => showWhatsapp(caller(auth), params.id),
  "PUT /api/whatsapp/{id}": async ({ auth, params, body }) => updateWhatsapp(caller(auth), params.id, body),
  "DELETE /api/whatsapp/{id}": answering("Whatsapp deleted.", ({ auth, params }) => deleteWhatsapp(caller(auth), params.id)),
  "POST /api/whatsapp-restart": async ({ auth }) => restartWhatsappSessions(caller(auth)),
  "POST /api/whatsappsession/{id}": answering("Starting session.", ({ auth, params }) => startWhatsappSession(caller(auth), params.id)),
  "PUT /api/whatsappsession/{id}": answering("Starting session.", ({ auth, params }) => renewWhatsappQr(caller(auth), params.id)),
  "DELETE /api/whatsappsession/{id}": answering("Session disconnected.", ({ auth, params }) => disconnectWhatsappSession(caller(auth), params.id)),
});
