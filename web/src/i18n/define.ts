/** Texts written once per key in the three languages (pt, en, es), split into the bundles i18next reads. */

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

