import { describe, expect, it } from "vitest";
import { buildOptionTree, type QueueOptionItem } from "../queues/options/schema.ts";
import { menuQueues, optionNodeText, optionRootText, pickQueue, queueMenuText, walkOptions } from "./chatbot.ts";

const opt = (id: number, option: string, title: string, parentId: number | null = null, message = ""): QueueOptionItem => ({
  id,
  companyId: 1,
  queueId: 7,
  parentId,
  title,
  message,
  option,
  mediaPath: null,
  mediaName: null,
  createdAt: `2026-01-01T00:00:0${id % 10}Z`,
  updatedAt: "2026-01-01T00:00:00Z",
});

// Financeiro: 1 Boletos (1 Segunda via, 2 Boleto pago), 2 Notas fiscais, 10 Outros
const tree = buildOptionTree([
  opt(1, "1", "Boletos", null, "Sobre boletos:"),
  opt(2, "1", "Segunda via", 1, "Segue a segunda via."),
  opt(3, "2", "Boleto pago", 1, "Envie o comprovante."),
  opt(4, "2", "Notas fiscais", null, "Notas em 24 horas."),
  opt(5, "10", "Outros", null),
]);

describe("chatbot menu texts", () => {
  it("lists the queues in orderQueue (unset last, then id) after the greeting, numbered from 1", () => {
    const queues = menuQueues([
      { id: 3, orderQueue: null, name: "Sem ordem" },
      { id: 1, orderQueue: 2, name: "Financeiro" },
      { id: 2, orderQueue: 1, name: "Vendas" },
      { id: 4, orderQueue: 2, name: "Cobrança" },
    ]);
    expect(queueMenuText("Olá! Escolha:", queues)).toBe("Olá! Escolha:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Financeiro\n*[ 3 ]* - Cobrança\n*[ 4 ]* - Sem ordem");
    expect(queueMenuText("  ", queues.slice(0, 1))).toBe("*[ 1 ]* - Vendas");
  });

  it("renders the queue's option menu and a node's menu with the back and home lines", () => {
    expect(optionRootText("Financeiro aqui.", tree)).toBe("Financeiro aqui.\n\n*[ 1 ]* - Boletos\n*[ 2 ]* - Notas fiscais\n*[ 10 ]* - Outros\n*[ # ]* - Menu inicial");
    expect(optionRootText("", tree.slice(1, 2))).toBe("*[ 2 ]* - Notas fiscais\n*[ # ]* - Menu inicial");
    expect(optionNodeText(tree[0])).toBe("Sobre boletos:\n\n*[ 1 ]* - Segunda via\n*[ 2 ]* - Boleto pago\n*[ 0 ]* - Menu anterior\n*[ # ]* - Menu inicial");
  });

  it("picks a queue only by a number that was offered", () => {
    const qs = ["A", "B", "C"];
    expect(pickQueue("2", qs)).toBe("B");
    expect(pickQueue(" 3 ", qs)).toBe("C");
    for (const bad of ["0", "4", "-1", "1.0", "2a", "um", "", "#", "1 2", "９"]) expect(pickQueue(bad, qs)).toBeNull();
  });

  it("walks the tree: options down, 0 up, # home, leaves, and anything else stays put", () => {
    expect(walkOptions(tree, null, "1")).toMatchObject({ kind: "node", node: { id: 1 } });
    expect(walkOptions(tree, null, "10")).toMatchObject({ kind: "leaf", node: { id: 5 } });
    expect(walkOptions(tree, 1, "2")).toMatchObject({ kind: "leaf", node: { id: 3 } });
    expect(walkOptions(tree, 1, "0")).toEqual({ kind: "root" });
    expect(walkOptions(tree, 1, "#")).toEqual({ kind: "home" });
    expect(walkOptions(tree, null, "#")).toEqual({ kind: "home" });
    expect(walkOptions(tree, null, "0")).toEqual({ kind: "invalid", at: null });
    expect(walkOptions(tree, 1, "3")).toMatchObject({ kind: "invalid", at: { id: 1 } });
    expect(walkOptions(tree, null, "2 ")).toMatchObject({ kind: "leaf", node: { id: 4 } });
    // A node deleted since the customer reached it: the answer is read at the queue's menu.
    expect(walkOptions(tree, 99, "2")).toMatchObject({ kind: "leaf", node: { id: 4 } });
  });
});
