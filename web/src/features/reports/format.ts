/** How the reports show times: local date and time of an instant, and `h:mm:ss` (or `m:ss`) of a number of seconds. */

const pad = (n: number) => String(n).padStart(2, "0");

/** `dd/MM/yyyy HH:mm` in the browser's zone; "" when missing. */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** `h:mm:ss` of `s` seconds. */
export const duration = (s: number) => `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
