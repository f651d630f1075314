/** Display formatting helpers (times are stored as ISO-8601 UTC and shown in the browser's zone). */

/**
 * Formats an ISO date or date-time as dd/MM/yyyy. A bare `yyyy-mm-dd` is shown as is (no zone shift);
 * a date-time is shown in the browser's zone. Returns the input unchanged when it is not a date.
 */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "";
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (m) return `${m[3]}/${m[2]}/${m[1]}`;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}
