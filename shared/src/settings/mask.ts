/**
 * How a sealed credential shows in answers and frames (docs/product/settings.md#integration-credentials): never in
 * clear, but `••••••••` followed by its last four characters, so an admin recognises which one is stored. An edit
 * that sends the mask back (or any text holding the mask character) keeps the stored credential.
 */

/** The mask character. */
export const MASK = "•";
/** A stored credential as answers show it ("" when none): eight mask characters and `hint`, its last four characters. */
export const maskKey = (hint: string, present: boolean): string => (present ? `${MASK.repeat(8)}${hint}` : "");
/** True when a typed credential is (or contains) the mask the API answered: not a new value. */
export const isMasked = (v: string): boolean => v.includes(MASK);
/** The hint kept beside a sealed credential: its last four characters. */
export const hintOf = (value: string): string => value.slice(-4);
