/**
 * Every visible and accessible text goes through i18n: no JSX text and no label-like attribute
 * (aria-label, placeholder, title, alt, label, legend, loadingText, …) of the SPA's sources is a hard-coded
 * Portuguese string; and no English or Spanish text of the bundles is left in Portuguese, outside the spec's quoted
 * texts. The browser side of the same rule is `./day-one.e2e.test.ts` (every screen in en and es).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import i18n from "../src/i18n/index.ts";
import "../src/features/registry.tsx";

const SRC = join(import.meta.dirname, "../src");
/** Words and letters Portuguese has and English and Spanish do not. */
const PT_ONLY = /[ãõç]|(?<!\p{L})(não|você|sua|seu|seus|suas|uma|nenhum|nenhuma|selecione|mensagem|mensagens|atendimento|atendimentos|usuário|usuários|conexão|conexões|contato|contatos|salvar|excluir|pesquisar|aguardando|adicionar|sair|olá|até|são|também|ações|nome|senha|fila|filas|telefone|fechar|conversa|conversas|arquivo|arquivos|apagar|carregando)(?!\p{L})/iu;
const LABEL_ATTRS = new Set(["aria-label", "aria-description", "placeholder", "title", "alt", "label", "legend", "loadingText", "descriptiveText", "errorMessage", "clearButtonLabel", "searchButtonLabel", "showPasswordButtonLabel", "hidePasswordButtonLabel"]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".tsx") && !e.name.includes(".test.") ? [join(dir, e.name)] : [],
  );
}

/** JSX texts and label-attribute string literals of one file that read as Portuguese, as `file:line text`. */
function portugueseLiterals(file: string, source = readFileSync(file, "utf8")): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const hit = (node: ts.Node, text: string) => {
    if (PT_ONLY.test(text)) found.push(`${relative(SRC, file)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${text.trim()}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) hit(node, node.text);
    if (ts.isJsxAttribute(node) && LABEL_ATTRS.has(node.name.getText(sf)) && node.initializer) {
      const init = node.initializer;
      if (ts.isStringLiteral(init)) hit(init, init.text);
      else if (ts.isJsxExpression(init) && init.expression && (ts.isStringLiteral(init.expression) || ts.isNoSubstitutionTemplateLiteral(init.expression))) hit(init, init.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function leaves(o: unknown, prefix = ""): [string, string][] {
  if (typeof o === "string") return [[prefix, o]];
  if (typeof o !== "object" || o === null) return [];
  return Object.entries(o).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

/** The spec's quoted texts ('…'): those stay in Portuguese where the spec says so. */
function specQuotes(): string[] {
  const dir = join(SRC, "../../../shared/spec");
  const text = ["attendance.md", "administration.md"].map((f) => readFileSync(join(dir, f), "utf8")).join("\n");
  return [...text.matchAll(/'([^'\n]{3,200})'/g)].map((m) => m[1]);
}

describe("i18n everywhere", () => {
  it("has no hard-coded Portuguese text or label in the SPA's JSX", () => {
    expect(sources(SRC).flatMap((f) => portugueseLiterals(f))).toEqual([]);
  });

  it("catches a hard-coded Portuguese label or text (the check itself)", () => {
    const probe = `export const X = ({ t }) => (
  <div title={t("ok")}>
    <button aria-label="Fechar conversa">{t("close")}</button>
    <input placeholder={"Pesquisar contatos"} />
    <p>Nenhuma mensagem</p>
    <span>#{1}</span>
  </div>
);`;
    expect(portugueseLiterals(join(SRC, "probe.tsx"), probe)).toEqual(["probe.tsx:3 Fechar conversa", "probe.tsx:4 Pesquisar contatos", "probe.tsx:5 Nenhuma mensagem"]);
  });

  it("leaves no English or Spanish text in Portuguese outside the spec's quoted texts", () => {
    const quoted = new Set(specQuotes());
    for (const lang of ["en", "es"]) {
      // A `{nome}` placeholder is a message variable the user types as it is (campaigns), not text to translate.
      const left = leaves(i18n.getResourceBundle(lang, "translation")).filter(([, v]) => PT_ONLY.test(v.replace(/\{\w+\}/g, "")) && !quoted.has(v));
      expect(left, lang).toEqual([]);
    }
  });
});
