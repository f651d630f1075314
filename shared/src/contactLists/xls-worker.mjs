// Reads an Excel 97-2003 (.xls) workbook inside a worker thread (./spreadsheet.ts starts it with a time and heap
// limit): the first sheet's cells as plain strings, one {row, cells} per non-empty row, posted back; nothing else of
// the parser's objects leaves the worker.
import { parentPort, workerData } from "node:worker_threads";
import * as XLSX from "@e965/xlsx";

const wb = XLSX.read(workerData, { type: "buffer", cellFormula: false, cellHTML: false, cellStyles: false, sheetRows: 200_000, dense: true });
const ws = wb.Sheets[wb.SheetNames[0]];
const out = [];
if (ws?.["!ref"]) {
  const range = XLSX.utils.decode_range(ws["!ref"]);
  const rows = XLSX.utils.sheet_to_json(ws, { header: 1, raw: true, blankrows: true, defval: null });
  rows.forEach((cells, i) => {
    const text = cells.map((c) => (c == null ? "" : typeof c === "number" ? (Number.isInteger(c) ? BigInt(c).toString() : String(c)) : String(c)));
    if (text.some((t) => t.trim() !== "")) out.push({ row: range.s.r + i + 1, cells: text });
  });
}
parentPort.postMessage(out);
