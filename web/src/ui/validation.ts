/**
 * Form validation with the product's messages: 'Required', 'Too Short!',
 * 'Too Long!', 'Invalid email'. Each rule returns an i18n key or undefined.
 */
export type Rule = (v: string) => string | undefined;

export const required: Rule = (v) => (v.trim() ? undefined : "validation.required");
export const length =
  (min: number, max: number): Rule =>
  (v) => (v.trim().length < min ? "validation.tooShort" : v.trim().length > max ? "validation.tooLong" : undefined);
export const email: Rule = (v) => (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) ? undefined : "validation.invalidEmail");
/** Length rule for a value that may be left empty. */
export const optional =
  (rule: Rule): Rule =>
  (v) => (v === "" ? undefined : rule(v));

/** Runs the rules of each field in order; returns the first failing key per field. */
export function validate<K extends string>(values: Record<K, string>, rules: Partial<Record<K, Rule[]>>): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const k of Object.keys(rules) as K[]) {
    for (const r of rules[k] ?? []) {
      const err = r(values[k] ?? "");
      if (err) {
        out[k] = err;
        break;
      }
    }
  }
  return out;
}
