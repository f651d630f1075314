/**
 * From spreadsheet rows to people, shared by the contact list and the contacts imports
 * (docs/product/contact-lists.md#import):
 * - the header is the first row (of the first 20) naming a number column (`numero`, `número`, `number`, `telefone`,
 *   `celular`, `whatsapp`, `phone`, any case and accents); its `nome`/`name`/`nombre` and `email`/`e-mail`/`correo` columns are read too,
 *   other columns are ignored. Without such a row, columns A, B, C are name, number, e-mail from row 1;
 * - each number is normalized (`./phone.ts`); no digits → skipped `missingNumber`, not a phone number → skipped
 *   `invalidNumber`, a number already met in the file → skipped `duplicate` (the first row wins);
 * - names and e-mails are trimmed; an e-mail that is not one is dropped with a warning (the row is still imported);
 *   a row without a name takes its number as name.
 */
import { z } from "zod";
import { normalizeName } from "../contacts/normalize.ts";
import type { ImportRowReport } from "./import-schema.ts";
import { normalizePhone } from "./phone.ts";
import type { SheetRow } from "./spreadsheet.ts";

/** A row that will be imported: its sheet row, and the values to write. */
export interface ImportPerson {
  row: number;
  name: string;
  number: string;
  email: string;
  warning?: "invalidEmail";
}

const NUMBER_HEADERS = ["numero", "number", "telefone", "telefono", "celular", "whatsapp", "phone", "fone"];
const NAME_HEADERS = ["nome", "name", "nombre"];
const EMAIL_HEADERS = ["email", "e-mail", "mail", "correo"];
/** Longest name kept (as the forms allow). */
const NAME_MAX = 50;

const isEmail = (v: string) => z.email().safeParse(v).success;

/** The header's row index (in `rows`) and the columns of name, number and e-mail. */
function findColumns(rows: SheetRow[]): { at: number; name: number; number: number; email: number } {
  for (let i = 0; i < Math.min(rows.length, 20); i++) {
    const heads = (rows[i]?.cells ?? []).map((c) => normalizeName(c));
    const number = heads.findIndex((h) => NUMBER_HEADERS.includes(h));
    if (number >= 0) {
      return { at: i, number, name: heads.findIndex((h) => NAME_HEADERS.includes(h)), email: heads.findIndex((h) => EMAIL_HEADERS.includes(h)) };
    }
  }
  return { at: -1, name: 0, number: 1, email: 2 };
}

/**
 * The people of a sheet and what happened to every data row: `people` to write (each number once), and `report`
 * with one entry per data row (the imported ones with status `added` for now; the writer sets the final status).
 */
export function peopleOf(rows: SheetRow[]): { people: ImportPerson[]; report: ImportRowReport[] } {
  const cols = findColumns(rows);
  const seen = new Map<string, number>();
  const people: ImportPerson[] = [];
  const report: ImportRowReport[] = [];
  for (const r of rows.slice(cols.at + 1)) {
    const cell = (i: number) => (i >= 0 ? (r.cells[i] ?? "").trim() : "");
    const typed = cell(cols.number);
    const rawEmail = cell(cols.email).toLowerCase();
    const email = rawEmail && isEmail(rawEmail) ? rawEmail : "";
    const phone = normalizePhone(typed);
    const name = cell(cols.name).replace(/\s+/g, " ").slice(0, NAME_MAX);
    if ("error" in phone) {
      report.push({ row: r.row, name, number: typed, email, status: "skipped", reason: phone.error === "missing" ? "missingNumber" : "invalidNumber" });
      continue;
    }
    const first = seen.get(phone.number);
    if (first !== undefined) {
      report.push({ row: r.row, name, number: phone.number, email, status: "skipped", reason: "duplicate", duplicateOf: first });
      continue;
    }
    seen.set(phone.number, r.row);
    const person: ImportPerson = { row: r.row, name: name.length >= 2 ? name : phone.number, number: phone.number, email, ...(rawEmail && !email ? { warning: "invalidEmail" as const } : {}) };
    people.push(person);
    report.push({ row: r.row, name: person.name, number: person.number, email, status: "added", ...(person.warning ? { warning: person.warning } : {}) });
  }
  return { people, report };
}
