/**
 * THE route manifest (docs/architecture.md#6-http-contracts-manifest-pipeline): every HTTP operation of the product, one line per feature. Each feature declares
 * its operations (method, path, Lambda area, auth level, request and response schemas) in its own
 * `shared/src/<feature>/contract.ts` with `defineRoutes`; adding a feature adds one line here. CDK creates one Lambda
 * per area and one API Gateway route per entry; the local gateway (`infra/local`) reads the same list; the web's API
 * client is typed from {@link Manifest}. Paths include the `/api` prefix the browser uses.
 */
import type { Operation } from "@atende/shared/contract";
import { announcementsRoutes } from "@atende/shared/announcements/contract";
import { authRoutes } from "@atende/shared/auth/contract";
import { chatsRoutes } from "@atende/shared/chats/contract";
import { companiesRoutes } from "@atende/shared/companies/contract";
import { contactsRoutes } from "@atende/shared/contacts/contract";
import { contactListsRoutes } from "@atende/shared/contactLists/contract";
import { fileListsRoutes } from "@atende/shared/fileLists/contract";
import { helpsRoutes } from "@atende/shared/helps/contract";
import { campaignsRoutes } from "@atende/shared/campaigns/contract";
import { invoicesRoutes } from "@atende/shared/invoices/contract";
import { dashboardRoutes } from "@atende/shared/dashboard/contract";
import { jobsRoutes } from "@atende/shared/jobs/contract";
import { kanbanRoutes } from "@atende/shared/kanban/contract";
import { mediaRoutes, messagesRoutes } from "@atende/shared/messages/contract";
import { messagesApiRoutes } from "@atende/shared/messagesApi/contract";
import { privacyRoutes } from "@atende/shared/privacy/contract";
import { reportsRoutes } from "@atende/shared/reports/contract";
import { integrationsRoutes } from "@atende/shared/integrations/contract";
import { notesRoutes } from "@atende/shared/notes/contract";
import { plansRoutes } from "@atende/shared/plans/contract";
import { promptsRoutes } from "@atende/shared/prompts/contract";
import { queuesRoutes } from "@atende/shared/queues/contract";
import { queueOptionsRoutes } from "@atende/shared/queues/options/contract";
import { quickMessagesRoutes } from "@atende/shared/quickMessages/contract";
import { schedulesRoutes } from "@atende/shared/schedules/contract";
import { settingsRoutes } from "@atende/shared/settings/contract";
import { tagsRoutes } from "@atende/shared/tags/contract";
import { ticketsRoutes } from "@atende/shared/tickets/contract";
import { usersRoutes } from "@atende/shared/users/contract";
import { whatsappRoutes } from "@atende/shared/whatsapp/contract";
import { webhooksRoutes } from "@atende/shared/webhooks/contract";
import { pushRoutes } from "@atende/shared/push/contract";

export type { AuthLevel, Method } from "@atende/shared/contract";

export const manifest = {
  ...authRoutes,
  ...usersRoutes,
  ...queuesRoutes,
  ...queueOptionsRoutes,
  ...settingsRoutes,
  ...companiesRoutes,
  ...plansRoutes,
  ...whatsappRoutes,
  ...ticketsRoutes,
  ...messagesRoutes,
  ...contactsRoutes,
  ...notesRoutes,
  ...mediaRoutes,
  ...dashboardRoutes,
  ...tagsRoutes,
  ...quickMessagesRoutes,
  ...integrationsRoutes,
  ...schedulesRoutes,
  ...jobsRoutes,
  ...kanbanRoutes,
  ...chatsRoutes,
  ...announcementsRoutes,
  ...helpsRoutes,
  ...promptsRoutes,
  ...invoicesRoutes,
  ...webhooksRoutes,
  ...pushRoutes,
  ...contactListsRoutes,
  ...fileListsRoutes,
  ...campaignsRoutes,
  ...messagesApiRoutes,
  ...privacyRoutes,
  ...reportsRoutes,
};

/** Every operation, keyed `"METHOD /api/path"`, with its contract (types for the pipeline and the web client). */
export type Manifest = typeof manifest;
/** An operation key of the manifest. */
export type OperationId = keyof Manifest;
/** A Lambda area. */
export type Area = Manifest[OperationId]["area"];
/** One manifest entry. */
export type RouteDef = Operation & { area: Area };

/** Every route, in manifest order. */
export const routes: RouteDef[] = Object.values(manifest);

/** The routes served by one area's Lambda. */
export const routesOf = (area: Area) => routes.filter((x) => x.area === area);
/** Every area that has at least one route. */
export const areas = (): Area[] => [...new Set(routes.map((x) => x.area))];
