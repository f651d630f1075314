/**
 * i18next setup: Portuguese default and fallback, English and Spanish; the chosen language is
 * persisted in localStorage (`language`) and reflected in `<html lang>`.
 */
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import type { TextBundles } from "./define.ts";
import { en, es, pt } from "./texts.ts";

export { defineTexts, type Text3, type TextBundles, type TextsOf, type TextTree } from "./define.ts";

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

/**
 * Adds a feature's texts under `ns` (deep-merged, so a feature may add keys to a shared namespace such as
 * `validation`). Features declare their bundles in their `index.tsx` (`Feature.texts`); the registry adds them, so the
 * files of this folder do not grow with each feature.
 */
export function registerTexts(ns: string, bundles: TextBundles): void {
  for (const [lng, texts] of Object.entries(bundles)) i18n.addResourceBundle(lng, "translation", { [ns]: texts }, true, false);
}

export default i18n;
