/**
 * The search benchmark: a company with N contacts and N tickets of 5 messages each, loaded by the bulk seed
 * (`seed.ts`: the items the product's own path writes), then `GET /api/tickets?searchParam=` and
 * `GET /api/contacts?searchParam=` through the local gateway for a surname, a first name held by about 5 % of the
 * contacts, a number fragment, a message word and two words, matching and not, beside a tab's page for comparison;
 * plus the index's write cost per message measured on the real write path (`ingestMessage`). Targets on a quiet
 * machine: p99 ≤ 50 ms, flat from 1k to 100k (ratio ≤ 1.5), a search page's CPU ≤ 2× a tab page's.
 */
import { ddb } from "../../shared/src/db/client.ts";
import { settleDeferred } from "../../shared/src/events/index.ts";
import { ingestMessage } from "../../shared/src/messages/repository.ts";
import { knownWords, messageIndexWrites } from "../../shared/src/search/writes.ts";
import { getTicketItem } from "../../shared/src/tickets/repository.ts";
import { caseRow, measureGet } from "./http-load.ts";
import { seedMany, type SeedTenant, type SeedTicket } from "./seed.ts";
import { summarize } from "./stats.ts";

const FIRST = ["Ana", "Bruno", "Carla", "Diego", "Eduarda", "Felipe", "Gabriela", "Heitor", "Isabela", "João", "Karina", "Lucas", "Natália", "Otávio", "Paula", "Rafael", "Sofia", "Thiago", "Vitória", "Wagner"];
/** 40 surnames: "Lima" is 1 in 40 contacts. */
const LAST = [
  "Silva", "Santos", "Oliveira", "Souza", "Lima", "Pereira", "Costa", "Rodrigues", "Almeida", "Nascimento", "Araújo", "Ferreira", "Ribeiro", "Carvalho",
  "Gomes", "Martins", "Rocha", "Barbosa", "Melo", "Cardoso", "Teixeira", "Correia", "Dias", "Moreira", "Nunes", "Mendes", "Freitas", "Vieira", "Monteiro",
  "Campos", "Pinto", "Moura", "Cavalcanti", "Batista", "Azevedo", "Duarte", "Rezende", "Fonseca", "Macedo", "Prado",
];
const PHRASES = [
  "Bom dia, tudo bem?", "Olá, gostaria de saber o status do meu pedido", "Meu pedido {n} ainda não chegou", "Pode me mandar a segunda via do boleto?",
  "Obrigado pelo atendimento!", "Qual o prazo de entrega para minha cidade?", "O produto veio com defeito na embalagem", "Vocês aceitam cartão de crédito?",
  "Preciso trocar o tamanho da camiseta", "Ok, aguardo retorno", "Já fiz o pagamento via pix ontem", "Qual o horário de funcionamento da loja?",
  "Segue o comprovante em anexo", "Consegue verificar o código de rastreio?", "Perfeito, muito obrigada", "A nota fiscal não veio junto",
];
/** 1 ticket in 50 holds this word in one of its messages. */
const RARE = "Quero o reembolso da compra {n}";

/** The five messages of ticket `i`. */
function bodies(i: number): string[] {
  const out: string[] = [];
  for (let k = 0; k < 5; k++) out.push(PHRASES[(i * 7 + k * 3) % PHRASES.length].replace("{n}", String(1000 + ((i * 13 + k) % 9000))));
  if (i % 50 === 0) out[2] = RARE.replace("{n}", String(i));
  return out;
}

/**
 * Seeds `n` contacts and tickets (5 messages each, {@link searchTicket}) in the company with every index item
 * (`seed.ts` `seedTicketItems`: the items the product's path writes); returns the items written.
 */
export async function seedSearch(opts: SeedTenant & { n: number }): Promise<number> {
  return seedMany(opts, opts.n, searchTicket);
}

/** Ticket `i` of the search seed (contact and ticket id `i`): 5 messages, an email on one contact in 3. */
export function searchTicket(i: number): SeedTicket {
  const r = i % 5;
  return {
    id: i,
    name: `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`,
    number: `55119${String(i).padStart(8, "0")}`,
    email: i % 3 === 0 ? `cliente${i}@exemplo.com.br` : "",
    status: r < 2 ? "open" : r < 4 ? "pending" : "closed",
    at: new Date(SEARCH_BASE + i * 60000),
    bodies: bodies(i),
    index: true,
  };
}
const SEARCH_BASE = Date.parse("2026-01-01T00:00:00Z");

/**
 * Index items a message write adds, measured on `ingestMessage` as the session runner calls it (`atRev`: its exact
 * copy of the open ticket, which remembers the words already indexed, `search/writes.ts` `knownWords`): `count`
 * messages of the seed's phrases into one of the company's tickets, each on the copy the previous write returned.
 * Returns the distribution of added items per message.
 */
export async function measureWriteCost(companyId: number, ticketId: number, count = 200) {
  let ticket = await getTicketItem(companyId, ticketId, true);
  if (!ticket) throw new Error(`write cost: ticket ${ticketId} not found`);
  const added: number[] = [];
  for (let i = 0; i < count; i++) {
    const body = bodies(i)[i % 5];
    const now = new Date().toISOString();
    const m = { id: `COST${i}${Date.now()}`, ticketId, companyId, contactId: ticket.contactId, whatsappId: ticket.whatsappId, remoteJid: "x@s.whatsapp.net", participant: null, senderName: null, body, fromMe: false, read: false, mediaType: "chat" as const, mediaKey: null, mediaName: null, mediaMime: null, mediaSize: null, mediaError: false, ack: 0, isDeleted: false, isEdited: false, previousBody: null, isForwarded: false, quotedMsgId: null, quotedMsg: null, reactions: [], waTimestamp: now, userId: null, sendError: null, isAutomatic: false };
    const items = messageIndexWrites(m, knownWords.get(ticket)).items.length;
    const res = await ingestMessage(companyId, ticket, m, { lastMessage: body, incrementUnread: true, waAliasJid: "x@s.whatsapp.net", atRev: true });
    if (res.stored) added.push(items);
    ticket = res.ticket;
  }
  const s = summarize(added);
  return { messages: added.length, meanItems: Math.round((added.reduce((a, b) => a + b, 0) / added.length) * 10) / 10, p50Items: s.p50, maxItems: s.max };
}

/**
 * The search cases: [label, path] for ticket and contact search, matching and not, and a tab's page (open, every
 * queue: `showAll`) of the same company for comparison. Shares of the seed's tickets matched: surname Lima 1 in 40,
 * first name Carla 1 in 20, "reembolso" 1 in 50, "segunda boleto" 1 in 16.
 */
export function searchCases(n: number): [string, string][] {
  // The last 6 digits of one seeded number (matches it and the ids that extend it: ~1 at 1k, ~111 at 100k).
  const fragment = String(Math.floor(n * 0.4567)).padStart(8, "0").slice(-6);
  return [
    ["tab for comparison: open, showAll", "/api/tickets?status=open&showAll=true"],
    ["tickets: surname (Lima)", "/api/tickets?searchParam=Lima"],
    ["tickets: surname, none", "/api/tickets?searchParam=Zanetti"],
    ["tickets: first name, ~5% (Carla)", "/api/tickets?searchParam=Carla"],
    ["tickets: first name, none", "/api/tickets?searchParam=Zuleica"],
    ["tickets: number fragment", `/api/tickets?searchParam=${fragment}`],
    ["tickets: number fragment, none", "/api/tickets?searchParam=7654321"],
    ["tickets: message word", "/api/tickets?searchParam=reembolso"],
    ["tickets: message word, none", "/api/tickets?searchParam=xilofone"],
    ["tickets: two words", "/api/tickets?searchParam=segunda%20boleto"],
    ["tickets: two words, none", "/api/tickets?searchParam=segunda%20xilofone"],
    ["contacts: surname (Lima)", "/api/contacts?searchParam=Lima"],
    ["contacts: number fragment", `/api/contacts?searchParam=${fragment}`],
    ["contacts: email word", "/api/contacts?searchParam=exemplo"],
    ["contacts: none", "/api/contacts?searchParam=Zanetti"],
  ];
}

/**
 * The DynamoDB work of one request, counted on the shared client (the local stack runs in this process) from when
 * `fn` starts until the work it deferred has settled (`events` `settleDeferred`: a list page re-packs stale rows in the
 * background, `tickets/row.ts`), and only that: work deferred by earlier requests is settled before counting starts
 * (else a request right after the first one counts the first one's row repairs, and sees its rows still stale). Calls
 * by command, the items Queries returned and the keys BatchGets asked for. Unlike CPU time on a shared machine, these
 * do not move with the load.
 */
export async function ddbWorkOf(fn: () => Promise<unknown>): Promise<string> {
  await settleDeferred();
  const name = `searchWork${Math.random().toString(36).slice(2)}`;
  const calls = new Map<string, number>();
  const wrote = new Map<string, number>();
  let queried = 0;
  let keys = 0;
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      const command = String((context as { commandName?: string }).commandName ?? "").replace(/Command$/, "");
      calls.set(command, (calls.get(command) ?? 0) + 1);
      type Keyed = { PK?: unknown; SK?: unknown };
      const input = args.input as { RequestItems?: Record<string, { Keys?: unknown[] }>; Key?: Keyed; Item?: Keyed; TransactItems?: Record<string, { Key?: Keyed; Item?: Keyed }>[] };
      if (command.startsWith("BatchGet")) for (const r of Object.values(input.RequestItems ?? {})) keys += r.Keys?.length ?? 0;
      // A write names the kind of item it touched (its keys' shapes, ids as "n"), so work nobody expects is traced.
      const kindOf = (k?: Keyed) => `${String(k?.PK ?? "?")}|${String(k?.SK ?? "?")}`.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, "uuid").replace(/\d+/g, "n");
      const write = (what: string) => wrote.set(what, (wrote.get(what) ?? 0) + 1);
      if (command === "UpdateItem" || command === "PutItem" || command === "DeleteItem") write(`${command} ${kindOf(input.Key ?? input.Item)}`);
      if (command === "TransactWriteItems") for (const t of input.TransactItems ?? []) for (const [op, v] of Object.entries(t)) write(`${op} ${kindOf(v.Key ?? v.Item)}`);
      const out = await next(args);
      if (command === "Query") queried += Number((out.output as { Count?: number }).Count ?? 0);
      return out;
    },
    { step: "initialize", name, priority: "low" },
  );
  try {
    await fn();
    await settleDeferred();
  } finally {
    ddb().middlewareStack.remove(name);
  }
  const writes = wrote.size ? ` (writes: ${[...wrote].map(([w, k]) => `${k} ${w}`).join(", ")})` : "";
  return `${[...calls].map(([c, k]) => `${k} ${c}`).join(" + ")}; ${queried} queried, ${keys} keys${writes}`;
}

/**
 * Runs every case through the local gateway from a separate client process: 200 requests at concurrency 1 and 400 at
 * concurrency 10, with the product's CPU per request (this process + DynamoDB Local `ddbPids`), after counting the
 * DynamoDB work of one request ({@link ddbWorkOf}); rows for the table. `reps.c1` 0: the DynamoDB work only. `only`:
 * the cases whose label holds one of these texts (all when absent).
 */
export async function runSearchCases(
  baseUrl: string,
  token: string,
  n: number,
  seedSeconds: number,
  ddbPids: number[],
  reps: { c1: number; c10: number; warmup?: number } = { c1: 200, c10: 400 },
  only?: string[],
) {
  const rows: Record<string, unknown>[] = [];
  for (const [label, path] of searchCases(n).filter(([l]) => !only || only.some((o) => l.includes(o)))) {
    const get = () => fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
    await get(); // the first answer re-packs stale rows (`tickets/row.ts`); `ddbWorkOf` waits for that: the steady state is measured
    let body: { tickets?: unknown[]; contacts?: unknown[] } = {};
    const work = await ddbWorkOf(async () => {
      body = await get();
    });
    const figures = reps.c1 > 0 ? await caseRow(`${baseUrl}${path}`, token, ddbPids, reps).catch((err: Error) => ({ error: err.message.slice(0, 200) })) : {};
    const row = { tickets: n, seedS: seedSeconds, case: label, rows: (body.tickets ?? body.contacts)?.length, "ddb per request": work, ...figures };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  return rows;
}

/**
 * A search page's CPU against a tab page's, measured alternately (`--searchVsTab=<rounds>`): for each search case,
 * `rounds` rounds of a block of `per` requests of the tab at concurrency 10, then one of the case, after a warm-up of
 * both, once all the cases have run a warm-up block; the product's CPU per request (this process + DynamoDB Local, ms)
 * of each block, and the ratio of the medians.
 * Measured side by side, both see the same load and DynamoDB Local's JIT in the same state (a tab measured first, right
 * after DynamoDB Local's start, costs up to twice its steady state).
 */
export async function searchVsTab(baseUrl: string, token: string, n: number, ddbPids: number[], only?: string[], rounds = 3, per = 200) {
  const [tab, ...cases] = searchCases(n);
  const rows: Record<string, unknown>[] = [];
  const block = async (path: string) => (await measureGet(`${baseUrl}${path}`, token, ddbPids, [{ total: per, concurrency: 10 }], 100))[0];
  const chosen = cases.filter(([l]) => !only || only.some((o) => l.includes(o)));
  // Every case once before any is measured: the case measured first would otherwise pay DynamoDB Local's JIT of its
  // read paths (a seed written to the file never ran them), and read higher than a later case of the same calls.
  for (const [, path] of [tab, ...chosen]) await measureGet(`${baseUrl}${path}`, token, ddbPids, [{ total: per * 2, concurrency: 10 }], 0);
  for (const [label, path] of chosen) {
    const t: number[] = [];
    const c: number[] = [];
    const split = { tab: [] as string[], search: [] as string[] };
    for (let r = 0; r < rounds; r++) {
      const a = await block(tab[1]);
      const b = await block(path);
      t.push(a.cpuMs);
      c.push(b.cpuMs);
      split.tab.push(`${a.nodeCpuMs}+${a.ddbCpuMs}`);
      split.search.push(`${b.nodeCpuMs}+${b.ddbCpuMs}`);
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    const row = {
      tickets: n,
      case: label,
      "tab cpu ms/req (node+ddb)": split.tab.join(" / "),
      "search cpu ms/req (node+ddb)": split.search.join(" / "),
      "median tab": median(t),
      "median search": median(c),
      ratio: Math.round((median(c) / median(t)) * 100) / 100,
    };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  return rows;
}
