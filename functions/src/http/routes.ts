/**
 * THE route manifest (DESIGN.md §2): every HTTP route of the product with the Lambda area that serves it
 * and its auth level. CDK creates one Lambda per area and one API Gateway route per entry; the local
 * gateway (`infra/local`) reads the same list. Paths include the `/api` prefix the browser uses.
 *
 * Auth levels: `public` (no token), `user` (any logged-in user), `admin` (profile admin or super),
 * `super` (super flag), `apiToken` (a connection's token, public messages API).
 */
export type Method = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";
export type AuthLevel = "public" | "user" | "admin" | "super" | "apiToken";
export type Area =
  | "auth" | "users" | "queues" | "settings" | "companies" | "plans"
  | "whatsapp" | "tickets" | "messages" | "contacts" | "notes" | "media";

export interface RouteDef {
  method: Method;
  path: string;
  area: Area;
  auth: AuthLevel;
}

const r = (method: Method, path: string, area: Area, auth: AuthLevel): RouteDef => ({ method, path, area, auth });

export const routes: RouteDef[] = [
  // auth (attendance.md §7; issue 2 §3)
  r("POST", "/api/auth/login", "auth", "public"),
  r("POST", "/api/auth/refresh_token", "auth", "public"),
  r("DELETE", "/api/auth/logout", "auth", "public"),
  r("GET", "/api/auth/me", "auth", "user"),
  r("POST", "/api/auth/ws-ticket", "auth", "user"),
  r("GET", "/api/version", "auth", "public"),

  // users (issue 2 §4)
  r("GET", "/api/users", "users", "admin"),
  r("GET", "/api/users/list", "users", "user"),
  r("GET", "/api/users/{id}", "users", "user"),
  r("POST", "/api/users", "users", "admin"),
  r("PUT", "/api/users/{id}", "users", "user"),
  r("DELETE", "/api/users/{id}", "users", "admin"),

  // queues
  r("GET", "/api/queue", "queues", "user"),
  r("GET", "/api/queue/{id}", "queues", "user"),
  r("POST", "/api/queue", "queues", "admin"),
  r("PUT", "/api/queue/{id}", "queues", "admin"),
  r("DELETE", "/api/queue/{id}", "queues", "admin"),

  // settings
  r("GET", "/api/settings", "settings", "user"),
  r("PUT", "/api/settings/{key}", "settings", "admin"),

  // companies and plans (super, minimal)
  r("GET", "/api/companies/listPlan/{companyId}", "companies", "user"),
  r("POST", "/api/companies", "companies", "super"),
  r("GET", "/api/companies/{id}", "companies", "super"),
  r("PUT", "/api/companies/{id}", "companies", "super"),
  r("GET", "/api/plans/list", "plans", "public"),

  // connections (issue 3 §1)
  r("GET", "/api/whatsapp", "whatsapp", "user"),
  r("POST", "/api/whatsapp", "whatsapp", "admin"),
  r("GET", "/api/whatsapp/{id}", "whatsapp", "user"),
  r("PUT", "/api/whatsapp/{id}", "whatsapp", "admin"),
  r("DELETE", "/api/whatsapp/{id}", "whatsapp", "admin"),
  r("POST", "/api/whatsapp-restart", "whatsapp", "admin"),
  r("POST", "/api/whatsappsession/{id}", "whatsapp", "admin"),
  r("PUT", "/api/whatsappsession/{id}", "whatsapp", "admin"),
  r("DELETE", "/api/whatsappsession/{id}", "whatsapp", "admin"),

  // tickets (issue 3 §4)
  r("GET", "/api/tickets", "tickets", "user"),
  r("GET", "/api/tickets/u/{uuid}", "tickets", "user"),
  r("GET", "/api/tickets/{id}", "tickets", "user"),
  r("POST", "/api/tickets", "tickets", "user"),
  r("PUT", "/api/tickets/{id}", "tickets", "user"),
  r("DELETE", "/api/tickets/{id}", "tickets", "admin"),
  r("POST", "/api/tickets/closeAll", "tickets", "admin"),

  // messages
  r("GET", "/api/messages/{ticketId}", "messages", "user"),
  r("POST", "/api/messages/{ticketId}", "messages", "user"),
  r("POST", "/api/messages/edit/{id}", "messages", "user"),
  r("DELETE", "/api/messages/{id}", "messages", "user"),
  r("POST", "/api/messages/{id}/reactions", "messages", "user"),
  r("POST", "/api/message/forward", "messages", "user"),

  // contacts
  r("GET", "/api/contacts", "contacts", "user"),
  r("GET", "/api/contacts/list", "contacts", "user"),
  r("GET", "/api/contacts/{id}", "contacts", "user"),
  r("POST", "/api/contacts", "contacts", "user"),
  r("PUT", "/api/contacts/{id}", "contacts", "user"),
  r("DELETE", "/api/contacts/{id}", "contacts", "admin"),

  // ticket notes (issue 4 §6)
  r("POST", "/api/ticket-notes", "notes", "user"),
  r("DELETE", "/api/ticket-notes/{id}", "notes", "user"),
  r("GET", "/api/ticket-notes/list", "notes", "user"),

  // media: short-lived presigned URLs scoped to the caller's company (issue 4 §6)
  r("GET", "/api/media/{messageId}", "media", "user"),
];

/** The routes served by one area's Lambda. */
export const routesOf = (area: Area) => routes.filter((x) => x.area === area);
/** Every area that has at least one route. */
export const areas = (): Area[] => [...new Set(routes.map((x) => x.area))];
