/** The names of the timer kinds, in one module without imports so listeners and handlers share them. */

/** An open ticket idle for the connection's `expiresTicket` minutes (ref = ticket id). */
export const EXPIRES_TICKET = "expiresTicket";
/** A pending ticket without a queue for the connection's `timeToTransfer` minutes (ref = ticket id; data `{since}`). */
export const TIME_TO_TRANSFER = "timeToTransfer";
/** The rating wait after a resolve with `userRating` (ref = ticket id; data `{ratingAt, reprompted?}`). */
export const RATING_WAIT = "ratingWait";
/** A company's next invoice, due 20 days before its due date (ref `due`; data `{dueDate}`; `invoices/due.ts`). */
export const INVOICE_DUE = "invoiceDue";
/** What a deleted ticket leaves behind: its partition and its search items (ref = ticket id; data `{contact}`; `tickets/remains.ts`). */
export const TICKET_REMAINS = "ticketRemains";
