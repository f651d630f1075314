/**
 * Reading the first sheet of an uploaded spreadsheet as plain text cells (docs/product/contact-lists.md#import):
 * .xlsx with exceljs; .csv decoded as UTF-8, or Windows-1252 when it is not UTF-8 (what Excel in Portuguese writes),
 * separator `;`, `,` or tab as the header line uses, parsed by exceljs; .xls (Excel 97-2003) with SheetJS (`@e965/xlsx`,
 * the 0.20 line, free of the 0.18.5 CVEs) confined to a worker thread with a time and memory limit that copies out
 * plain values only ({@link XLS_LIMITS}). Numbers come from the raw cell values (a 13-digit number stays whole), a
 * formula by its cached result, a hyperlink by its text (a `mailto:` e-mail).
 */
import { Readable } from "node:stream";
import { Worker } from "node:worker_threads";
import ExcelJS from "exceljs";
import { AppError } from "../errors.ts";
import "./errors.ts";

/** One row of the sheet: its 1-based number and its cells as text (index 0 = column A). */
export interface SheetRow {
  row: number;
  cells: string[];
}

export type SpreadsheetKind = "xlsx" | "xls" | "csv";

/** Largest spreadsheet read (bytes). */
export const MAX_SPREADSHEET_BYTES = 10 * 1024 * 1024;
/** The .xls reader's confinement: wall time (ms) and heap (MB) of its worker, largest file (bytes). */
export const XLS_LIMITS = { timeoutMs: 20_000, heapMb: 256, maxBytes: 5 * 1024 * 1024 } as const;

/**
 * The first bytes a workbook of each kind starts with: an .xlsx is a ZIP, an .xls an OLE compound file. Anything else
 * (text, HTML, or another format the .xls reader would also parse) is refused before a reader sees it.
 */
const MAGIC: Partial<Record<SpreadsheetKind, number[]>> = { xlsx: [0x50, 0x4b, 0x03, 0x04], xls: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] };

/** The kind of an uploaded file by its name's extension (then its type), or undefined. */
export function spreadsheetKind(fileName: string, mime = ""): SpreadsheetKind | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (ext === "xlsx" || ext === "xls" || ext === "csv") return ext;
  if (mime.includes("spreadsheetml")) return "xlsx";
  if (mime === "application/vnd.ms-excel") return "xls";
  if (mime === "text/csv") return "csv";
  return undefined;
}

/** A number cell as its digits when whole (no exponent, no thousands separators), else as JavaScript writes it. */
const numberText = (n: number) => (Number.isInteger(n) ? BigInt(n).toString() : String(n));

/** The text of one exceljs cell value. */
function cellText(v: ExcelJS.CellValue): string {
  if (v == null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number") return numberText(v);
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if ("richText" in v) return v.richText.map((r) => r.text).join("");
  if ("hyperlink" in v) {
    const text = typeof v.text === "string" ? v.text : cellText(v.text as ExcelJS.CellValue);
    return text || v.hyperlink.replace(/^mailto:/i, "");
  }
  if ("formula" in v || "sharedFormula" in v) return cellText((v as { result?: ExcelJS.CellValue }).result ?? null);
  if ("error" in v) return "";
  return "";
}

function rowsOf(ws: ExcelJS.Worksheet | undefined): SheetRow[] {
  const out: SheetRow[] = [];
  ws?.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: false }, (cell, col) => {
      cells[col - 1] = cellText(cell.value);
    });
    out.push({ row: rowNumber, cells: Array.from(cells, (c) => c ?? "") });
  });
  return out;
}

/** The text of a CSV file: UTF-8 (BOM dropped) when it is valid UTF-8, else Windows-1252. */
export function decodeCsv(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

async function readCsv(bytes: Uint8Array): Promise<SheetRow[]> {
  const text = decodeCsv(bytes);
  const head = text.split(/\r?\n/, 1)[0] ?? "";
  const delimiter = [";", ",", "\t"].map((d) => [d, head.split(d).length] as const).sort((a, b) => b[1] - a[1])[0]?.[0] ?? ";";
  const wb = new ExcelJS.Workbook();
  // Every value stays the text the file holds (no date or number guessing by the CSV reader).
  const ws = await wb.csv.read(Readable.from([text]), { parserOptions: { delimiter }, map: (v: unknown) => v } as never);
  return rowsOf(ws);
}

async function readXlsx(bytes: Uint8Array): Promise<SheetRow[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(bytes) as never);
  return rowsOf(wb.worksheets[0]);
}

/** Reads an .xls in a worker (time and heap limited); the worker sends back plain rows of text, nothing else. */
function readXls(bytes: Uint8Array): Promise<SheetRow[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./xls-worker.mjs", import.meta.url), {
      workerData: bytes,
      resourceLimits: { maxOldGenerationSizeMb: XLS_LIMITS.heapMb },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new AppError("ERR_IMPORT_FILE_UNREADABLE"));
    }, XLS_LIMITS.timeoutMs);
    const finish = (fn: () => void) => {
      clearTimeout(timer);
      fn();
    };
    worker.once("message", (msg: unknown) =>
      finish(() => {
        void worker.terminate();
        const rows = Array.isArray(msg) ? msg : null;
        if (!rows) return reject(new AppError("ERR_IMPORT_FILE_UNREADABLE"));
        resolve(
          rows
            .filter((r): r is { row: number; cells: unknown[] } => !!r && typeof r.row === "number" && Array.isArray(r.cells))
            .map((r) => ({ row: r.row, cells: r.cells.map((c) => (typeof c === "string" ? c : "")) })),
        );
      }),
    );
    worker.once("error", () => finish(() => reject(new AppError("ERR_IMPORT_FILE_UNREADABLE"))));
    worker.once("exit", (code) => finish(() => code !== 0 && reject(new AppError("ERR_IMPORT_FILE_UNREADABLE"))));
  });
}

/**
 * What can be told of a spreadsheet without reading it: its size (at most {@link MAX_SPREADSHEET_BYTES}, an .xls at
 * most the .xls reader's limit) and the first bytes of its kind's container (an .xlsx is a ZIP, an .xls an OLE file).
 * @throws AppError `ERR_IMPORT_FILE_UNREADABLE` (400) when either is wrong.
 */
export function checkSpreadsheet(kind: SpreadsheetKind, bytes: Uint8Array): void {
  if (bytes.byteLength > (kind === "xls" ? XLS_LIMITS.maxBytes : MAX_SPREADSHEET_BYTES)) throw new AppError("ERR_IMPORT_FILE_UNREADABLE");
  const magic = MAGIC[kind];
  if (magic && !magic.every((b, i) => bytes[i] === b)) throw new AppError("ERR_IMPORT_FILE_UNREADABLE");
}

/**
 * The rows of the first sheet of `bytes` (a file of `kind`), blank rows left out.
 * @throws AppError `ERR_IMPORT_FILE_UNREADABLE` (400) for a damaged file or one of another format, one over {@link MAX_SPREADSHEET_BYTES} (or
 * the .xls limits), or an .xls whose reading passes its time or memory limit.
 */
export async function readSpreadsheet(kind: SpreadsheetKind, bytes: Uint8Array): Promise<SheetRow[]> {
  checkSpreadsheet(kind, bytes);
  try {
    const rows = kind === "xls" ? await readXls(bytes) : kind === "csv" ? await readCsv(bytes) : await readXlsx(bytes);
    return rows.filter((r) => r.cells.some((c) => c.trim() !== ""));
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError("ERR_IMPORT_FILE_UNREADABLE");
  }
}
