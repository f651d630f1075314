/**
 * Display helpers of the attendance screens (docs/product/tickets.md#the-list-and-its-tabs): the ticket age label and its colour, times, day
 * headers, phone display `+CC (AA) number`, ack ticks, and the location body `image | link | description`.
 */
import { useEffect, useState } from "react";

/** Period of the age label refresh (a product constant), in ms. */
export const AGE_REFRESH_MS = 30_000;

/** `Date.now()` re-read every `ms` milliseconds (default 30 s), for labels that age. */
export function useNow(ms = AGE_REFRESH_MS): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [ms]);
  return now;
}

export type AgeColor = "green" | "orange" | "red" | undefined;

/**
 * The age of a ticket's last activity: under 1 minute "now", then minutes, hours from 60 minutes, days after 24 hours.
 * Colour: green 3-10 minutes, orange 30-59 minutes, red from 60 minutes (the product's age colours).
 */
export function ticketAge(updatedAt: string, now: number): { unit: "now" | "min" | "h" | "d"; n: number; color: AgeColor } {
  const minutes = Math.max(0, Math.floor((now - Date.parse(updatedAt)) / 60_000));
  const color: AgeColor = minutes >= 60 ? "red" : minutes >= 30 ? "orange" : minutes >= 3 && minutes <= 10 ? "green" : undefined;
  if (minutes < 1) return { unit: "now", n: 0, color };
  if (minutes < 60) return { unit: "min", n: minutes, color };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { unit: "h", n: hours, color };
  return { unit: "d", n: Math.floor(hours / 24), color };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** `HH:mm` in the browser's zone. */
export function timeOf(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** `dd/MM/yyyy` in the browser's zone (day separators). */
export function dayOf(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

/** `dd/MM/yy HH:mm` (connections' last update). */
export function shortDateTime(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${String(d.getFullYear()).slice(2)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Phone display (docs/product/contacts.md#numbers): the one contact-number formatter, `contacts/phone.ts`. */
export { formatContactNumber as formatPhone } from "../contacts/phone.ts";

/** Tick state of an outbound message: ack 0 clock, 1-2 one tick, 3 two ticks, 4-5 two blue ticks, -1 failed. */
export function ackState(ack: number): "failed" | "pending" | "sent" | "delivered" | "read" {
  if (ack < 0) return "failed";
  if (ack === 0) return "pending";
  if (ack <= 2) return "sent";
  if (ack === 3) return "delivered";
  return "read";
}

/** A location body `image | link | description` split into its parts (missing parts are ""). */
export function parseLocation(body: string): { image: string; link: string; description: string } {
  const [image = "", link = "", ...rest] = body.split("|").map((s) => s.trim());
  return { image, link, description: rest.join(" | ") };
}

/** Name and first phone number of a vCard (`FN:` and `TEL...:`/`waid=`). */
export function parseVcard(vcard: string): { name: string; number: string } {
  const name = /^FN[^:]*:(.*)$/m.exec(vcard)?.[1]?.trim() ?? "";
  const waid = /waid=(\d+)/.exec(vcard)?.[1];
  const tel = /^(?:item\d+\.)?TEL[^:]*:(.*)$/m.exec(vcard)?.[1] ?? "";
  return { name, number: waid ?? tel.replace(/\D/g, "") };
}

/** Human file size (B, KB, MB). */
export function fileSize(bytes: number | null | undefined): string {
  if (!bytes && bytes !== 0) return "";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
