/**
 * Contacts' domain events (see `docs/architecture.md` §4): `contact.created|updated|deleted` carry the stored contact.
 * Realtime frame `company-{id}-contact` `{action: "create"|"update", contact}` / `{action: "delete", contactId}` to the
 * whole company.
 */
import { z } from "zod";
import { baseEvent, defineEvents, defineFrames, realtimeFrames } from "../events/index.ts";
import { ContactFrame, ContactItem } from "./schema.ts";
import { contactView } from "./views.ts";

type Base<T extends string> = { type: T; companyId: number };

declare module "../events/registry.ts" {
  interface EventMap {
    "contact.created": Base<"contact.created"> & { contact: ContactItem };
    /** `changed`: the fields this update changed, when the writer knows them (listeners may then skip work). */
    "contact.updated": Base<"contact.updated"> & { contact: ContactItem; changed?: string[] };
    "contact.deleted": Base<"contact.deleted"> & { contact: ContactItem };
  }
}

defineEvents({
  "contact.created": baseEvent("contact.created").extend({ contact: ContactItem }),
  "contact.updated": baseEvent("contact.updated").extend({ contact: ContactItem, changed: z.array(z.string()).optional() }),
  "contact.deleted": baseEvent("contact.deleted").extend({ contact: ContactItem }),
});

defineFrames({ contact: ContactFrame });

realtimeFrames("contact.created", (e) => [{ name: "contact", data: { action: "create", contact: contactView(e.contact) } }]);
realtimeFrames("contact.updated", (e) => [{ name: "contact", data: { action: "update", contact: contactView(e.contact) } }]);
realtimeFrames("contact.deleted", (e) => [{ name: "contact", data: { action: "delete", contactId: e.contact.id } }]);
