/**
 * A contact's personal data (docs/product/personal-data.md): the export's download answer and the audit entry kept
 * for each export and erasure.
 */
import { z } from "zod";
import { zId } from "../common.ts";

/** Path `{id}` (the contact). */
export const ContactIdParams = z.object({ id: zId });
/** Path `{id}` (the contact) and `{jobId}` (the export's job). */
export const ExportParams = z.object({ id: zId, jobId: z.string().uuid() });

/** `GET .../personal-data/export/{jobId}`: a short-lived link to the zip. */
export const ExportLink = z.object({ url: z.string(), expiresInSeconds: z.number().int(), fileName: z.string() });

/** An audit entry: who did what to which contact, when. It holds no personal data of the contact (only its id). */
export const AuditEntry = z.object({
  id: z.string(),
  companyId: z.number().int(),
  userId: z.number().int(),
  action: z.enum(["contact.personalData.export", "contact.personalData.erase"]),
  contactId: z.number().int(),
  jobId: z.string(),
  at: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** A job's params: the contact. */
export const ContactJobParams = z.object({ contactId: z.number().int() });
