/**
 * zod building blocks with the product's validation messages as i18n keys: 'Required',
 * 'Too Short!', 'Too Long!', 'Invalid email'. The form dialog translates them when shown.
 */
import { z } from "zod";

/** A required text of `min` to `max` characters (after trimming). */
export const name = (min = 2, max = 50) =>
  z.string().trim().min(1, "validation.required").min(min, "validation.tooShort").max(max, "validation.tooLong");

/** A required, valid email. */
export const email = () => z.string().trim().min(1, "validation.required").pipe(z.email("validation.invalidEmail"));

/** A text that may be left empty; otherwise `min` to `max` characters. */
export const optionalLength = (min: number, max: number) =>
  z.string().refine((v) => v === "" || v.trim().length >= min, "validation.tooShort").refine((v) => v.trim().length <= max, "validation.tooLong");

/** An email that may be left empty. */
export const optionalEmail = () => z.string().trim().refine((v) => v === "" || z.email().safeParse(v).success, "validation.invalidEmail");

/** A whole number ≥ 0 ('Número inválido' otherwise). */
export const count = () => z.number().int("validation.invalidNumber").min(0, "validation.invalidNumber");

/**
 * A whole number ≥ 0 typed in a text box (minutes, counts, an order): digits only, else 'Número inválido'; an empty
 * box gives `empty` (0 unless told, e.g. null for "not set").
 */
export const numberText = <E extends number | null = 0>(empty: E = 0 as E) =>
  z
    .string()
    .refine((v) => /^\d*$/.test(v.trim()), "validation.invalidNumber")
    .transform((v): number | E => (v.trim() === "" ? empty : Number(v.trim())));

export { z };

/** True when the browser accepts `v` as a CSS colour (anything passes where CSS.supports is missing). */
const isCssColor = (v: string) => typeof CSS === "undefined" || typeof CSS.supports !== "function" || CSS.supports("color", v);

/** A required CSS colour of 3 to 9 characters (the queue and tag colour rule). */
export const color = () =>
  z.string().trim().min(1, "validation.required").min(3, "validation.tooShort").max(9, "validation.tooLong").refine(isCssColor, "validation.invalidColor");
