/**
 * Connections area (attendance.md §2 Connections page, §7 routes; issue 3 §1): thin handlers over
 * `@atende/shared/whatsapp/service`. The company always comes from the verified token.
 */
import { z } from "zod";
import { isAdmin, type AuthContext } from "@atende/shared/auth/tokens";
import { zId } from "@atende/shared/common";
import { CreateWhatsappBody, UpdateWhatsappBody } from "@atende/shared/whatsapp/schema";
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
import { areaHandler, route } from "./core/http.ts";

const IdParams = z.object({ id: zId });
/** `session=0` (and `companyId`) are accepted for compatibility and ignored: the company is the caller's. */
const ListQuery = z.object({ session: z.string().optional(), companyId: z.string().optional() }).passthrough();

const caller = (auth: AuthContext): Caller => ({ companyId: auth.companyId, admin: isAdmin(auth) });

export const handler = areaHandler("whatsapp", {
  "GET /api/whatsapp": route({ query: ListQuery, handler: async ({ auth }) => listWhatsapps(caller(auth)) }),
  "POST /api/whatsapp": route({ body: CreateWhatsappBody, handler: async ({ auth, body }) => createWhatsapp(caller(auth), body) }),
  "GET /api/whatsapp/{id}": route({ params: IdParams, query: ListQuery, handler: async ({ auth, params }) => showWhatsapp(caller(auth), params.id) }),
  "PUT /api/whatsapp/{id}": route({
    params: IdParams,
    body: UpdateWhatsappBody,
    handler: async ({ auth, params, body }) => updateWhatsapp(caller(auth), params.id, body),
  }),
  "DELETE /api/whatsapp/{id}": route({
    params: IdParams,
    handler: async ({ auth, params }) => {
      await deleteWhatsapp(caller(auth), params.id);
      return { message: "Whatsapp deleted." };
    },
  }),
  "POST /api/whatsapp-restart": route({ handler: async ({ auth }) => restartWhatsappSessions(caller(auth)) }),
  "POST /api/whatsappsession/{id}": route({
    params: IdParams,
    handler: async ({ auth, params }) => {
      await startWhatsappSession(caller(auth), params.id);
      return { message: "Starting session." };
    },
  }),
  "PUT /api/whatsappsession/{id}": route({
    params: IdParams,
    handler: async ({ auth, params }) => {
      await renewWhatsappQr(caller(auth), params.id);
      return { message: "Starting session." };
    },
  }),
  "DELETE /api/whatsappsession/{id}": route({
    params: IdParams,
    handler: async ({ auth, params }) => {
      await disconnectWhatsappSession(caller(auth), params.id);
      return { message: "Session disconnected." };
    },
  }),
});
