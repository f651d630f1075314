/**
 * A company's recurrence (its billing period) in months, and the due date it moves to: when an invoice is paid
 * (`invoices/service.ts`) and when the super user clicks "+Vencimento" on the Empresas tab (the web app).
 */
import { addMonths } from "date-fns";

/** Months a due date moves by, for each recurrence. */
export const RECURRENCE_MONTHS = { MENSAL: 1, BIMESTRAL: 2, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 } as const;
export type RecurrenceName = keyof typeof RECURRENCE_MONTHS;

/** `dueDate` (ISO; `now` when the company has none) moved by `recurrence`'s months, as ISO. */
export function nextDueDate(dueDate: string | null | undefined, recurrence: RecurrenceName, now: Date = new Date()): string {
  return addMonths(dueDate ? new Date(dueDate) : now, RECURRENCE_MONTHS[recurrence]).toISOString();
}
