/**
 * Contact list import (`npm run bench -- --only=contact-import`): a 10,000-row .xlsx written here with exceljs (the
 * shape of `../shared/fixtures/contacts/generated-10k-contacts.xlsx`: `nome | numero | email`, accented names, 14
 * area codes), imported into an empty list through the service the upload route calls, then imported again (every
 * row an update). The upload answers with a background job, run by the local stack's jobs queue consumer: reports
 * the request's time (check the file, keep it in the bucket, start the job: what must stay under API Gateway's 29 s),
 * rows/s end to end (to the job done: the file read by the job's first step, then written in transactions with the
 * exact count, queued for the WhatsApp check), the reading alone, and that the list holds every row once.
 */
import ExcelJS from "exceljs";
import { getContactList } from "../../shared/src/contactLists/repository.ts";
import { getJob } from "../../shared/src/jobs/repository.ts";
import { createContactList, importContactListFile } from "../../shared/src/contactLists/service.ts";
import { readSpreadsheet } from "../../shared/src/contactLists/spreadsheet.ts";
import type { AuthContext } from "../../shared/src/auth/tokens.ts";

const FIRST = ["Ana", "João", "Maria", "José", "Antônio", "Francisca", "Luís", "Conceição", "Sebastião", "Letícia", "Gonçalo", "Cecília", "Raimundo", "Vitória", "Otávio", "Débora", "Caio", "Úrsula", "Benedito", "Iracema"];
const LAST = ["Silva", "Santos", "Oliveira", "Souza", "Pereira", "Lima", "Araújo", "Gonçalves", "Conceição", "Magalhães", "Simões", "Brandão", "Gusmão", "Figueirôa", "Guimarães", "Nóbrega", "Façanha", "Tupinambá", "Albuquerque", "Xavier", "Assunção", "Brito", "Rocha", "Lopes", "Maranhão"];
const AREAS = ["11", "21", "31", "41", "51", "61", "71", "81", "85", "27", "48", "62", "92", "98"];

/** An .xlsx of `rows` contacts (numeric number cells, as spreadsheet software writes them). */
export async function generatedContactsXlsx(rows: number): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("generated-10k-contacts");
  ws.addRow(["nome", "numero", "email"]);
  for (let i = 1; i <= rows; i++) {
    const a = (i - 1) % 20;
    const b = Math.floor((i - 1) / 20) % 25;
    const number = Number(`55${AREAS[(i - 1) % 14]}9${String(i).padStart(8, "0")}`);
    ws.addRow([`${FIRST[a]} ${LAST[b]}`, number, `${FIRST[a]!.toLowerCase()}.${i}@example.com`]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export async function benchContactImport(opts: { rows?: number; auth: AuthContext }) {
  const rows = opts.rows ?? 10_000;
  const bytes = await generatedContactsXlsx(rows);
  const list = await createContactList(opts.auth, { name: "Bench import" });
  const upload = { files: [{ filename: "generated-10k-contacts.xlsx", mimetype: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", content: bytes }] };

  const r0 = performance.now();
  const read = await readSpreadsheet("xlsx", bytes);
  const readMs = performance.now() - r0;

  /** One import to its job's end: the request's ms, the whole ms, and the job's counts. */
  const importOnce = async () => {
    const t0 = performance.now();
    const out = await importContactListFile(opts.auth, list.id, upload, false);
    const requestMs = performance.now() - t0;
    if (!("job" in out)) throw new Error("the upload answered no job");
    let job = await getJob(opts.auth.companyId, out.job.id);
    while (job?.status !== "done" && performance.now() - t0 < 30 * 60_000) {
      await new Promise((r) => setTimeout(r, 250));
      job = await getJob(opts.auth.companyId, out.job.id);
    }
    if (job?.status !== "done") throw new Error("the import job did not finish in 30 minutes");
    return { requestMs, ms: performance.now() - t0, added: job.result?.added ?? 0, updated: job.result?.updated ?? 0, skipped: job.result?.skipped ?? 0, steps: job.step };
  };
  const first = await importOnce();
  const second = await importOnce();
  const stored = await getContactList(opts.auth.companyId, list.id);
  const perSecond = (ms: number) => Math.round((rows / ms) * 1000);
  return {
    rows,
    fileBytes: bytes.length,
    readRows: read.length - 1,
    readMs: Math.round(readMs),
    readRowsPerSecond: perSecond(readMs),
    firstImport: { requestMs: Math.round(first.requestMs), ms: Math.round(first.ms), rowsPerSecond: perSecond(first.ms), added: first.added, updated: first.updated, skipped: first.skipped, steps: first.steps },
    secondImport: { requestMs: Math.round(second.requestMs), ms: Math.round(second.ms), rowsPerSecond: perSecond(second.ms), added: second.added, updated: second.updated, skipped: second.skipped, steps: second.steps },
    contactsCount: stored?.contactsCount,
  };
}
