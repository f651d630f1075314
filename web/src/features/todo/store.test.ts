/** The to-do list's storage rules that need no browser: one key per user of each company, blank text ignored, a damaged stored value read as empty. */
import { describe, expect, it } from "vitest";
import { parseTasks, taskText, todoKey } from "./store.ts";

describe("to-do storage", () => {
  it("keeps one list per user of each company", () => {
    expect(todoKey(1, 2)).toBe("todolist:1:2");
    expect(todoKey(2, 1)).not.toBe(todoKey(1, 2));
  });

  it("ignores blank text and trims the rest", () => {
    expect(taskText("   ")).toBeUndefined();
    expect(taskText("")).toBeUndefined();
    expect(taskText("  Ligar para o cliente ")).toBe("Ligar para o cliente");
  });

  it("reads a damaged or foreign stored value as an empty list, and keeps only well-formed tasks", () => {
    expect(parseTasks(null)).toEqual([]);
    expect(parseTasks("{not json")).toEqual([]);
    expect(parseTasks('{"id":"a"}')).toEqual([]);
    const ok = { id: "a", text: "Revisar contrato", createdAt: "2026-01-01T10:00:00.000Z" };
    expect(parseTasks(JSON.stringify([ok, { id: 3, text: "x" }, null, "texto"]))).toEqual([ok]);
  });
});
