/**
 * The feature declarations: who may open which page, every feature's texts complete in the
 * three languages, and the realtime frames a feature declares reaching its cache (tags as the example).
 */
import { can, PERMISSIONS, PROFILES, type Permission } from "@atende/shared/access/permissions";
import { QueryClient, type InfiniteData } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import type { Session, SessionUser } from "../api/session.ts";
import { dispatchRealtime } from "../realtime/handlers.ts";
import { mayAccess, refusal } from "./access.tsx";
import { features } from "./registry.tsx";
import { KANBAN_SWITCH } from "./tags/TagDialog.tsx";
import { tagsKeys } from "./tags/api.ts";
import type { TagsPage } from "./tags/types.ts";

const user = (profile: SessionUser["profile"], isSuper = false) => ({ profile, super: isSuper });
const accessOf = (id: string) => features.find((f) => f.id === id)?.access;

function leaves(o: unknown, prefix = ""): string[] {
  if (typeof o !== "object" || o === null) return [prefix];
  return Object.entries(o).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

describe("feature access", () => {
  it("keeps agents and supervisors out of connections, queues and users, and lets admins and super users in", () => {
    for (const id of ["connections", "queues", "users"]) {
      expect(refusal(user("user"), accessOf(id), {}), id).toBe("profile");
      expect(refusal(user("supervisor"), accessOf(id), {}), id).toBe("profile");
      expect(mayAccess(user("admin"), accessOf(id), {}), id).toBe(true);
      expect(mayAccess(user("user", true), accessOf(id), {}), id).toBe(true);
    }
  });

  it("decides with the shared permission table: a page opens for exactly the profiles its permission lists", () => {
    const declared = features.flatMap((f) => [f.access, ...f.routes.map((r) => r.access)]).filter((a) => a?.permission);
    expect(declared.length).toBeGreaterThan(0);
    for (const access of declared) {
      // A page behind a plan flag as well is checked with the flag on (the flag's own rule: the next test).
      const flags = access!.planFlag ? { [access!.planFlag]: true } : {};
      for (const p of PROFILES) {
        expect(mayAccess(user(p), access, flags), `${access!.permission} ${p}`).toBe(can(user(p), access!.permission!));
        expect(mayAccess(user(p), access, flags)).toBe((PERMISSIONS[access!.permission as Permission] as readonly string[]).includes(p));
      }
    }
    // The kanban switch follows the table too: supervisors hold `tags:kanban`, agents do not.
    expect(mayAccess(user("supervisor"), KANBAN_SWITCH, undefined)).toBe(true);
    expect(mayAccess(user("user"), KANBAN_SWITCH, undefined)).toBe(false);
  });

  it("opens /prompts for admins of a company whose plan has useOpenAi only", () => {
    expect(refusal(user("admin"), accessOf("prompts"), { useOpenAi: false })).toBe("plan");
    expect(refusal(user("supervisor"), accessOf("prompts"), { useOpenAi: true })).toBe("profile");
    expect(refusal(user("admin"), accessOf("prompts"), { useOpenAi: true })).toBeNull();
  });

  it("shows the settings' Ajuda tab (help videos) to super users only, and /helps and /todolist to every profile", () => {
    const tab = features.flatMap((f) => f.slots?.settingsTabs ?? []).find((x) => x.id === "helps");
    expect(tab).toBeDefined();
    for (const p of ["user", "supervisor", "admin"] as const) expect(mayAccess(user(p), tab!.access, {}), p).toBe(false);
    expect(mayAccess(user("admin", true), tab!.access, {})).toBe(true);
    for (const id of ["helps", "todolist"]) for (const p of ["user", "supervisor", "admin"] as const) expect(mayAccess(user(p), accessOf(id), {}), `${id} ${p}`).toBe(true);
  });

  it("opens /settings and its Empresas and Cadastrar Empresa tabs to a super user whose profile is not admin, never to admins", () => {
    const tabs = features.flatMap((f) => f.slots?.settingsTabs ?? []).filter((x) => x.id === "companies" || x.id === "newCompany");
    expect(tabs).toHaveLength(2);
    for (const p of ["user", "supervisor"] as const) {
      expect(mayAccess(user(p, true), accessOf("settings"), {}), p).toBe(true);
      for (const tab of tabs) expect(mayAccess(user(p, true), tab.access, {}), `${tab.id} ${p}`).toBe(true);
    }
    for (const tab of tabs) expect(mayAccess(user("admin"), tab.access, {}), tab.id).toBe(false);
  });

  it("lets every profile open tickets, contacts and tags", () => {
    for (const id of ["tickets", "contacts", "tags"]) for (const p of ["user", "supervisor", "admin"] as const) expect(mayAccess(user(p), accessOf(id), {}), `${id} ${p}`).toBe(true);
  });

  it("answers a missing plan flag or super-only page with the toast refusal, not the silent one", () => {
    expect(refusal(user("admin"), { planFlag: "useKanban" }, { useKanban: false })).toBe("plan");
    expect(refusal(user("admin"), { planFlag: "useKanban" }, undefined)).toBe("plan");
    expect(refusal(user("admin"), { planFlag: "useKanban" }, { useKanban: true })).toBeNull();
    expect(refusal(user("admin"), { super: true }, {})).toBe("plan");
    expect(refusal(user("admin", true), { super: true }, {})).toBeNull();
  });

  it("opens the integrations page to admins of a company whose plan has useIntegrations; without it, the toast refusal", () => {
    const access = accessOf("queue-integration");
    expect(refusal(user("admin"), access, { useIntegrations: true })).toBeNull();
    expect(refusal(user("admin"), access, { useIntegrations: false })).toBe("plan");
    expect(refusal(user("user"), access, { useIntegrations: true })).toBe("profile");
    expect(refusal(user("supervisor"), access, { useIntegrations: true })).toBe("profile");
  });
});

describe("feature texts", () => {
  it("gives every namespace a feature declares the same keys in English and Spanish as in Portuguese", () => {
    for (const f of features)
      for (const [ns, b] of Object.entries(f.texts ?? {})) {
        expect(leaves(b.en).sort(), `${f.id} ${ns} en`).toEqual(leaves(b.pt).sort());
        expect(leaves(b.es).sort(), `${f.id} ${ns} es`).toEqual(leaves(b.pt).sort());
      }
  });

  it("uses the product's fixed tag texts verbatim", async () => {
    const { tagsTexts } = await import("./tags/i18n.ts");
    expect(tagsTexts.pt.validation).toEqual({ required: "Obrigatório", tooShort: "Mensagem muito curta" });
    expect([tagsTexts.pt.added, tagsTexts.pt.removed]).toEqual(["Ticket Tag Adicionado com Sucesso!", "Ticket Tag Removido!"]);
  });
});

describe("company-{id}-tag frames", () => {
  const session = { token: "x.e30.y", user: { id: 7, companyId: 2, profile: "admin", super: false } } as unknown as Session;
  const ctx = (queryClient: QueryClient) => ({ queryClient, session, endSessionElsewhere: () => undefined });
  // Pages hold only the fields these checks read.
  const page = (tags: Partial<TagsPage["tags"][number]>[]) => ({ pages: [{ tags, count: tags.length, hasMore: false }], pageParams: [1] }) as unknown as InfiniteData<TagsPage>;
  const names = (qc: QueryClient, search: string) => qc.getQueryData<InfiniteData<TagsPage>>(tagsKeys.pages(search))!.pages[0].tags.map((x) => x.name);

  it("adds, renames and removes tags in the loaded pages and the picker list, and skips searches a new tag does not match", () => {
    const qc = new QueryClient();
    qc.setQueryData(tagsKeys.pages(""), page([{ id: 1, name: "Venda", color: "#00f", kanban: 0, ticketsCount: 2 }]));
    qc.setQueryData(tagsKeys.pages("vend"), page([{ id: 1, name: "Venda", color: "#00f", kanban: 0 }]));
    qc.setQueryData(tagsKeys.list, [{ id: 1, name: "Venda", color: "#00f", kanban: 0 }]);
    dispatchRealtime("company-2-tag", { action: "create", tag: { id: 2, name: "Suporte", color: "#f00", kanban: 1 } }, ctx(qc));
    expect(names(qc, "")).toEqual(["Suporte", "Venda"]);
    expect(names(qc, "vend")).toEqual(["Venda"]);
    dispatchRealtime("company-2-tag", { action: "update", tag: { id: 1, name: "Vendas", color: "#00f", kanban: 0, ticketsCount: 3 } }, ctx(qc));
    expect(names(qc, "")).toEqual(["Suporte", "Vendas"]);
    expect(qc.getQueryData<InfiniteData<TagsPage>>(tagsKeys.pages(""))!.pages[0].tags[1].ticketsCount).toBe(3);
    dispatchRealtime("company-2-tag", { action: "delete", tagId: 2 }, ctx(qc));
    expect(names(qc, "")).toEqual(["Vendas"]);
    expect(qc.getQueryData<{ name: string }[]>(tagsKeys.list)!.map((x) => x.name)).toEqual(["Vendas"]);
    // Another company's frame changes nothing.
    dispatchRealtime("company-3-tag", { action: "delete", tagId: 1 }, ctx(qc));
    expect(names(qc, "")).toEqual(["Vendas"]);
  });
});

describe("company-{id}-tag frames on tickets", () => {
  it("renames, recolours and removes a tag on the loaded tickets that carry it", async () => {
    const { ticketsKeys } = await import("./tickets/cache.ts");
    const qc = new QueryClient();
    const session = { token: "x.e30.y", user: { id: 7, companyId: 2, profile: "admin", super: false } } as unknown as Session;
    const ctx = { queryClient: qc, session, endSessionElsewhere: () => undefined };
    const ticket = (id: number, tags: { id: number; name: string; color: string }[]) => ({ id, uuid: `u${id}`, tags });
    qc.setQueryData(ticketsKeys.list({ status: "open" }), { pages: [{ tickets: [ticket(1, [{ id: 5, name: "VIP", color: "#000" }]), ticket(2, [])], count: 2, hasMore: false }], pageParams: [undefined] });
    qc.setQueryData(ticketsKeys.byUuid("u1"), ticket(1, [{ id: 5, name: "VIP", color: "#000" }]));
    dispatchRealtime("company-2-tag", { action: "update", tag: { id: 5, name: "Cliente VIP", color: "#f4b400", kanban: 0 } }, ctx);
    const list = () => qc.getQueryData<InfiniteData<{ tickets: ReturnType<typeof ticket>[] }>>(ticketsKeys.list({ status: "open" }))!.pages[0].tickets;
    expect(list()[0].tags).toEqual([{ id: 5, name: "Cliente VIP", color: "#f4b400" }]);
    expect(qc.getQueryData<ReturnType<typeof ticket>>(ticketsKeys.byUuid("u1"))!.tags[0].name).toBe("Cliente VIP");
    dispatchRealtime("company-2-tag", { action: "delete", tagId: 5 }, ctx);
    expect(list()[0].tags).toEqual([]);
    expect(qc.getQueryData<ReturnType<typeof ticket>>(ticketsKeys.byUuid("u1"))!.tags).toEqual([]);
  });
});

describe("feature slots", () => {
  it("fill the screens' slots from the registry: tags in the header and the list's filters, settings' tabs, the tickets' notes and bell", async () => {
    const { slotItems } = await import("./slots.ts");
    expect(slotItems("conversationHeader").map((x) => x.id)).toContain("tags");
    expect(slotItems("contactDrawer").map((x) => x.id)).toContain("notes");
    expect(slotItems("topBar").map((x) => x.id)).toContain("notifications");
    const tabs = slotItems("settingsTabs");
    expect(tabs.map((x) => x.id).slice(0, 2)).toEqual(["options", "hours"]);
    const hours = tabs.find((x) => x.id === "hours")!;
    expect(hours.shown?.([{ key: "scheduleType", value: "queue" }])).toBe(false);
    expect(hours.shown?.([{ key: "scheduleType", value: "company" }])).toBe(true);
    const tags = slotItems("ticketListFilters").find((x) => x.id === "tags")! as unknown as import("./types.ts").TicketListFilter<number[]>;
    expect(tags.query([3, 1])).toEqual({ tags: [1, 3] });
    expect(tags.query([])).toEqual({});
    expect(tags.active(tags.initial)).toBe(false);
  });
});

describe("quick messages in the composer's '/' list", () => {
  it("offers the active ones whose shortcode or text holds the typed text (accents and case aside), the text cut at 35", async () => {
    const { cut, matching, LABEL_MAX } = await import("./quickMessages/shortcuts.ts");
    const qm = (id: number, shortcode: string, message: string, status = true) => ({ id, shortcode, message, status }) as Parameters<typeof matching>[0][number];
    const list = [qm(1, "preco", "Nossa tabela de preços"), qm(2, "boasvindas", "Olá, seja bem-vindo"), qm(3, "antiga", "Preço antigo", false)];
    expect(matching(list, "").map((m) => m.shortcode)).toEqual(["boasvindas", "preco"]);
    expect(matching(list, "PREÇ").map((m) => m.shortcode)).toEqual(["preco"]);
    expect(matching(list, "bem-vindo").map((m) => m.shortcode)).toEqual(["boasvindas"]);
    expect(LABEL_MAX).toBe(35);
    expect(cut("a".repeat(35))).toBe("a".repeat(35));
    expect(cut("a".repeat(36))).toBe(`${"a".repeat(35)}...`);
  });
});

describe("company-{id}-job frames", () => {
  it("keep the progress of a job current, never going back to an older step, and ignore malformed frames", async () => {
    const { jobKey } = await import("./jobs/api.ts");
    const qc = new QueryClient();
    const session = { token: "x.e30.y", user: { id: 7, companyId: 2, profile: "user", super: false } } as unknown as Session;
    const ctx = { queryClient: qc, session, endSessionElsewhere: () => undefined };
    const id = "6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5";
    const job = (done: number, updatedAt: string, status = "running") => ({ id, kind: "deleteTag", status, done, total: 60, createdAt: "2026-01-01T00:00:00.000Z", updatedAt });
    dispatchRealtime("company-2-job", { action: "update", job: job(25, "2026-01-01T00:00:02.000Z") }, ctx);
    expect(qc.getQueryData(jobKey(id))).toMatchObject({ done: 25, total: 60 });
    dispatchRealtime("company-2-job", { action: "update", job: job(0, "2026-01-01T00:00:01.000Z") }, ctx);
    dispatchRealtime("company-2-job", { action: "update", job: { ...job(50, "2026-01-01T00:00:03.000Z"), done: "50" } }, ctx);
    dispatchRealtime("company-3-job", { action: "update", job: job(60, "2026-01-01T00:00:04.000Z", "done") }, ctx);
    expect(qc.getQueryData(jobKey(id))).toMatchObject({ done: 25, status: "running" });
    dispatchRealtime("company-2-job", { action: "update", job: job(60, "2026-01-01T00:00:04.000Z", "done") }, ctx);
    expect(qc.getQueryData(jobKey(id))).toMatchObject({ done: 60, status: "done" });
  });
});
