import { describe, expect, it } from "vitest";
import { parseWhatsappText, withoutAutomaticMark } from "./whatsappText.ts";

describe("WhatsApp text formatting", () => {
  it("shows the signature prefix and marked words formatted, as the phone does", () => {
    expect(parseWhatsappText("*Admin:*\nOlá _Maria_, o valor ~antigo~ era ```R$ 10```")).toEqual([
      { kind: "bold", children: [{ kind: "text", text: "Admin:" }] },
      { kind: "text", text: "\nOlá " },
      { kind: "italic", children: [{ kind: "text", text: "Maria" }] },
      { kind: "text", text: ", o valor " },
      { kind: "strike", children: [{ kind: "text", text: "antigo" }] },
      { kind: "text", text: " era " },
      { kind: "mono", text: "R$ 10" },
    ]);
  });

  it("nests formats and leaves markers inside words, around spaces or across lines as typed", () => {
    expect(parseWhatsappText("*muito _importante_*")).toEqual([
      { kind: "bold", children: [{ kind: "text", text: "muito " }, { kind: "italic", children: [{ kind: "text", text: "importante" }] }] },
    ]);
    for (const t of ["snake_case_name", "2*3*4 = 24", "* não é negrito *", "*começa\ntermina*", "**", "e-mail: a_b@c.com"]) {
      expect(parseWhatsappText(t)).toEqual([{ kind: "text", text: t }]);
    }
  });

  it("turns web addresses into links without the sentence's final punctuation, and never formats inside them", () => {
    expect(parseWhatsappText("Veja https://exemplo.com.br/a_b_c/pedido?id=1. Ou www.loja.com!")).toEqual([
      { kind: "text", text: "Veja " },
      { kind: "link", text: "https://exemplo.com.br/a_b_c/pedido?id=1", href: "https://exemplo.com.br/a_b_c/pedido?id=1" },
      { kind: "text", text: ". Ou " },
      { kind: "link", text: "www.loja.com", href: "https://www.loja.com" },
      { kind: "text", text: "!" },
    ]);
  });
});

describe("the automatic mark", () => {
  it("leaves the label alone to say 'Mensagem automática': the body starts with its own words", () => {
    expect(withoutAutomaticMark("*Mensagem automática*:\nVocê foi transferido para o departamento *Suporte*")).toBe("Você foi transferido para o departamento *Suporte*");
    expect(withoutAutomaticMark("*Mensagem Automática:*\nBom dia *Ana*")).toBe("Bom dia *Ana*");
    expect(withoutAutomaticMark("*Mensagem automática:* não atendemos chamadas")).toBe("não atendemos chamadas");
  });

  it("keeps texts that only mention the words, and a mark with nothing after it", () => {
    expect(withoutAutomaticMark("Esta é uma *Mensagem automática*: nada mais")).toBe("Esta é uma *Mensagem automática*: nada mais");
    expect(withoutAutomaticMark("*Mensagem automática*:")).toBe("*Mensagem automática*:");
    expect(withoutAutomaticMark("*Mensagem automática* sem dois-pontos")).toBe("*Mensagem automática* sem dois-pontos");
  });
});
