import { describe, expect, it } from "vitest";
import { greetingOfDay, renderVariables } from "./variables.ts";

describe("message variables", () => {
  // 2026-03-10 14:05:09 UTC = 11:05:09 in São Paulo (UTC-3), 10:05:09 in New York (EDT from 8 March)
  const now = new Date("2026-03-10T14:05:09Z");

  it("replaces the five variables in the company's zone", () => {
    const text = renderVariables("{{ms}} {{firstName}}! {{name}}, protocolo {{protocol}} às {{hora}}", { contactName: "Maria Lima", ticketId: 42, now });
    expect(text).toBe("Bom dia Maria! Maria Lima, protocolo 2026031011050942 às 11:05:09");
    expect(renderVariables("{{hora}}", { contactName: "x", ticketId: 1, now, timeZone: "America/New_York" })).toBe("10:05:09");
  });

  it("leaves unknown names, sections and broken templates as typed, and escapes nothing", () => {
    expect(renderVariables("Olá {{nome}} <b>&</b> {{#x}}a{{/x}} {{name}}", { contactName: "Zé & Cia", ticketId: 1, now })).toBe(
      "Olá {{nome}} <b>&</b> {{#x}}a{{/x}} Zé & Cia",
    );
    expect(renderVariables("preço {{ name", { contactName: "A", ticketId: 1, now })).toBe("preço {{ name");
  });

  it("greets by the hour in the zone", () => {
    expect(greetingOfDay(new Date("2026-03-10T08:30:00Z"))).toBe("Boa madrugada"); // 05:30 in São Paulo
    expect(greetingOfDay(new Date("2026-03-10T16:00:00Z"))).toBe("Boa tarde");
    expect(greetingOfDay(new Date("2026-03-10T22:00:00Z"))).toBe("Boa noite");
    expect(greetingOfDay(new Date("2026-03-10T22:00:00Z"), "Asia/Tokyo")).toBe("Bom dia"); // 07:00 next day
  });
});
