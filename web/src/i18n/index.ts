/**
 * i18next setup (issue 2 §6): Portuguese default and fallback, English and Spanish; the chosen language is
 * persisted in localStorage (`language`) and reflected in `<html lang>`.
 */
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { en } from "./en.ts";
import { es } from "./es.ts";
import { pt } from "./pt.ts";

export const LANGUAGES = ["pt", "en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
const STORAGE_KEY = "language";

function savedLanguage(): Language {
  const v = typeof localStorage !== "undefined" ? localStorage.getItem(STORAGE_KEY) : null;
  return (LANGUAGES as readonly string[]).includes(v ?? "") ? (v as Language) : "pt";
}

void i18n.use(initReactI18next).init({
  resources: { pt: { translation: pt }, en: { translation: en }, es: { translation: es } },
  lng: savedLanguage(),
  fallbackLng: "pt",
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
});
if (typeof document !== "undefined") document.documentElement.lang = i18n.language;

/** Switches the interface language and remembers the choice. */
export function setLanguage(lng: Language): void {
  localStorage.setItem(STORAGE_KEY, lng);
  if (typeof document !== "undefined") document.documentElement.lang = lng;
  void i18n.changeLanguage(lng);
}

/** A namespace's texts in the three languages (each language with the same keys as Portuguese). */
export interface TextBundles<T extends object = object> {
  pt: T;
  en: T;
  es: T;
}

/** One text in the three languages: `[pt, en, es]`. */
export type Text3 = readonly [pt: string, en: string, es: string];
/** Texts written key by key, each leaf a {@link Text3} (a missing language does not type-check). */
export type TextTree = { readonly [key: string]: Text3 | TextTree };
/** The texts of one language of a {@link TextTree}, with the same keys. */
export type TextsOf<T> = { -readonly [K in keyof T]: T[K] extends Text3 ? string : TextsOf<T[K]> };

/**
 * A namespace's texts written once per key, `{ title: ["Tags", "Tags", "Etiquetas"], ... }` (nested objects allowed),
 * split into the pt, en and es bundles i18next reads: every key has every language by construction.
 */
export function defineTexts<const T extends TextTree>(tree: T): TextBundles<TextsOf<T>> {
  const pick = (node: TextTree, i: 0 | 1 | 2): Record<string, unknown> =>
    Object.fromEntries(Object.entries(node).map(([k, v]) => [k, Array.isArray(v) ? v[i] : pick(v as TextTree, i)]));
  return { pt: pick(tree, 0), en: pick(tree, 1), es: pick(tree, 2) } as TextBundles<TextsOf<T>>;
}

/**
 * Adds a feature's texts under `ns` (deep-merged, so a feature may add keys to a shared namespace such as
 * `validation`). Features declare their bundles in their `index.tsx` (`Feature.texts`); the registry adds them, so the
 * files of this folder do not grow with each feature.
 */
export function registerTexts(ns: string, bundles: TextBundles): void {
  for (const [lng, texts] of Object.entries(bundles)) i18n.addResourceBundle(lng, "translation", { [ns]: texts }, true, false);
}

export default i18n;
