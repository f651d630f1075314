/**
 * Export of the Contacts page's contacts (the current search, every page of it) to .csv or .xlsx, built in the
 * browser: CSV with `;` (what Excel in Portuguese opens), UTF-8 with a BOM; .xlsx with exceljs, loaded only when
 * asked for. Columns: nome, numero, email (the import reads them back).
 */
import { call } from "../../api/operations.ts";
import type { Contact } from "./api.ts";

/** Every contact of the search, following the cursor pages. */
export async function allContacts(searchParam: string): Promise<Contact[]> {
  const out: Contact[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const page = await call("GET /api/contacts", { query: { searchParam, cursor } });
    out.push(...page.contacts);
    if (!page.hasMore || !page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return out;
}

const HEADER = ["nome", "numero", "email"];
const rowOf = (c: Contact) => [c.name, c.number, c.email];
const csvCell = (v: string) => (/[;"\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The contacts as a CSV file. */
export function contactsCsv(contacts: Contact[]): Blob {
  const lines = [HEADER, ...contacts.map(rowOf)].map((r) => r.map(csvCell).join(";"));
  return new Blob([`\uFEFF${lines.join("\r\n")}\r\n`], { type: "text/csv;charset=utf-8" });
}

/** The contacts as an .xlsx workbook (numbers as text, so no digit is lost). */
export async function contactsXlsx(contacts: Contact[]): Promise<Blob> {
  const { default: ExcelJS } = await import("exceljs");
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("Contatos");
  ws.addRow(HEADER);
  for (const c of contacts) ws.addRow(rowOf(c));
  ws.getColumn(2).numFmt = "@";
  const bytes = await wb.xlsx.writeBuffer();
  return new Blob([bytes], { type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" });
}

/** Saves `blob` as `fileName` through a temporary link. */
export function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
