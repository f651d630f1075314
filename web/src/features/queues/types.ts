/** Queue as the API returns it (administration.md §3 Queue) and the form the dialog sends. */
export interface Queue {
  id: number;
  name: string;
  color: string;
  greetingMessage?: string;
  outOfHoursMessage?: string;
  orderQueue?: number | null;
}

/** POST /api/queue and PUT /api/queue/{id} body. */
export interface QueueForm {
  name: string;
  color: string;
  greetingMessage: string;
  orderQueue: number | null;
}
