/**
 * Export of a whole report to .xlsx or .csv (docs/product/reports.md#export): a background job (`jobs/`) that reads the
 * report page after page, {@link EXPORT_ROWS_PER_STEP} rows per step, each step's rows kept as a part in the media
 * bucket (so a consumer that dies goes on from the last saved step), then streams the file from the parts to the bucket
 * and deletes them. The file is read through a short-lived link. Times are the company's local times; durations `h:mm:ss`.
 */
import { PassThrough } from "node:stream";
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import ExcelJS from "exceljs";
import { z } from "zod";
import { companyTimeZone } from "../companies/service.ts";
import { AppError } from "../errors.ts";
import { registerJobKind, startJob } from "../jobs/service.ts";
import type { JobView } from "../jobs/schema.ts";
import { log } from "../log.ts";
import { deleteMedia, getMedia, headMedia, presignMediaGet, putMedia, putMediaStream } from "../storage/media.ts";
import { ReportCursor, ReportExportJobParams, type ReportExportBody, type ReportRow } from "./schema.ts";
import { periodOf, readReport, rowsWithNames } from "./service.ts";
import { can } from "../access/permissions.ts";
import type { AuthContext } from "../auth/tokens.ts";

/** Rows read per job step (one part in the bucket). */
export const EXPORT_ROWS_PER_STEP = 1000;
/** How long the file's link works (s). */
export const EXPORT_LINK_TTL_SECONDS = 300;

const MIME = { xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", csv: "text/csv; charset=utf-8" } as const;
const fileKey = (cid: number, jobId: string, fmt: "xlsx" | "csv") => `media/${cid}/exports/reports/${jobId}.${fmt}`;
const partKey = (cid: number, jobId: string, n: number) => `media/${cid}/exports/reports/${jobId}/part-${String(n).padStart(5, "0")}.json`;
const fileName = (fmt: "xlsx" | "csv") => `relatorio-atendimentos.${fmt}`;

/** The columns of the file (Portuguese, the product's language). */
export const EXPORT_HEADER = ["Atendimento", "Status", "Contato", "Número", "Fila", "Atendente", "Conexão", "Aberto em", "Aceito em", "Fechado em", "Espera", "Duração", "Avaliação"];
const STATUS = { open: "Em atendimento", pending: "Aguardando", closed: "Finalizado" } as const;

/** `h:mm:ss` of a number of seconds. */
export const hms = (s: number) => `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;

/** One row of the file: every cell as text (numbers as numbers). */
export function exportCells(r: ReportRow, tz: string): (string | number)[] {
  const local = (iso: string | null) => (iso ? format(new TZDate(Date.parse(iso), tz), "dd/MM/yyyy HH:mm:ss") : "");
  return [
    r.ticketId,
    STATUS[r.status],
    r.contact.name,
    r.contact.number,
    r.queue?.name ?? "",
    r.user?.name ?? "",
    r.whatsapp?.name ?? "",
    local(r.openedAt),
    local(r.acceptedAt),
    local(r.closedAt),
    hms(r.waitSeconds),
    hms(r.handlingSeconds),
    r.rate ?? "",
  ];
}

const csvCell = (v: string | number) => {
  const s = String(v);
  return /[;"\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/**
 * The file, streamed: CSV with `;` and a BOM (what Excel in Portuguese opens), or an .xlsx sheet "Atendimentos"
 * (exceljs' streaming writer: each row is written out as it comes, never a whole workbook in memory). `parts`: the
 * rows, a batch at a time; only the batch being written and the compressor's buffers are held.
 */
export function exportFileStream(parts: AsyncIterable<(string | number)[][]>, fmt: "xlsx" | "csv"): AsyncIterable<Uint8Array> {
  if (fmt === "csv") return csvChunks(parts);
  const out = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet("Atendimentos");
  ws.getColumn(4).numFmt = "@";
  const header = ws.addRow(EXPORT_HEADER);
  header.font = { bold: true };
  header.commit();
  (async () => {
    for await (const rows of parts) for (const r of rows) ws.addRow(r).commit();
    ws.commit();
    await wb.commit();
  })().catch((err) => out.destroy(err));
  return out;
}

async function* csvChunks(parts: AsyncIterable<(string | number)[][]>): AsyncIterable<Uint8Array> {
  const enc = new TextEncoder();
  yield enc.encode(`\uFEFF${EXPORT_HEADER.map(csvCell).join(";")}\r\n`);
  for await (const rows of parts) if (rows.length) yield enc.encode(`${rows.map((r) => r.map(csvCell).join(";")).join("\r\n")}\r\n`);
}

/** The whole file's bytes ({@link exportFileStream} of `rows`). */
export async function exportFile(rows: (string | number)[][], fmt: "xlsx" | "csv"): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const c of exportFileStream((async function* () { yield rows; })(), fmt)) chunks.push(c);
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * `POST /api/ticket/reports/export`: starts the export of the report with `body.filters` (its period fixed now, in the
 * company's time zone) as `body.format`. Admins only (`reports:view`, else 403). Returns the job.
 */
export async function startReportExport(auth: AuthContext, body: ReportExportBody): Promise<JobView> {
  if (!can(auth, "reports:view")) throw new AppError("ERR_NO_PERMISSION");
  const tz = await companyTimeZone(auth.companyId);
  const { from, to } = periodOf(body.filters, tz);
  const params: ReportExportJobParams = { format: body.format, filters: body.filters, from, to, timezone: tz };
  return startJob(auth.companyId, auth.userId, "exportReport", params);
}

/** A link to the finished export `jobId` of the caller's company (403 without `reports:view`; 404 `ERR_NOT_FOUND` when unfinished or unknown). */
export async function reportExportLink(auth: AuthContext, jobId: string): Promise<{ url: string; expiresInSeconds: number; fileName: string }> {
  if (!can(auth, "reports:view")) throw new AppError("ERR_NO_PERMISSION");
  for (const fmt of ["xlsx", "csv"] as const) {
    const key = fileKey(auth.companyId, jobId, fmt);
    if (await headMedia(key)) {
      const name = fileName(fmt);
      return { url: await presignMediaGet(auth.companyId, key, EXPORT_LINK_TTL_SECONDS, name, MIME[fmt]), expiresInSeconds: EXPORT_LINK_TTL_SECONDS, fileName: name };
    }
  }
  throw new AppError("ERR_NOT_FOUND");
}

/** The job's resume point: the next part's number and the report cursor it starts at. */
const StepCursor = z.object({ part: z.number().int().min(0), at: ReportCursor.optional() });
const Part = z.array(z.array(z.union([z.string(), z.number()])));

registerJobKind("exportReport", async (job) => {
  const cid = job.companyId;
  const p = ReportExportJobParams.parse(job.params);
  const at = StepCursor.parse(job.cursor ? JSON.parse(job.cursor) : { part: 0 });
  const { rows, next } = await readReport(cid, p.filters, { from: p.from, to: p.to }, at.at, EXPORT_ROWS_PER_STEP);
  const cells = (await rowsWithNames(cid, rows)).map((r) => exportCells(r, p.timezone));
  await putMedia(partKey(cid, job.id, at.part), new TextEncoder().encode(JSON.stringify(cells)), "application/json");
  if (next) return { handled: cells.length, cursor: JSON.stringify({ part: at.part + 1, at: next }), finished: false };
  // The file is written from the parts one at a time, streamed to the bucket (memory: one part and a few MiB).
  let total = 0;
  const parts = async function* () {
    for (let n = 0; n <= at.part; n++) {
      const rows = Part.parse(JSON.parse((await getMedia(partKey(cid, job.id, n))).toString("utf8")));
      total += rows.length;
      yield rows;
    }
  };
  await putMediaStream(fileKey(cid, job.id, p.format), exportFileStream(parts(), p.format), MIME[p.format]);
  for (let n = 0; n <= at.part; n++) {
    await deleteMedia(partKey(cid, job.id, n)).catch((err) => log("warn", "report export: a part was not deleted", { companyId: cid, jobId: job.id, err }));
  }
  return { handled: cells.length, total, cursor: null, finished: true };
});
