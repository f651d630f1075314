/** The kit's own texts (`kit.*`) in pt, en and es. */
import { registerTexts } from "../../i18n/index.ts";

const pt = { searchHint: "Digite pelo menos 3 caracteres.", clearSearch: "Limpar pesquisa", pickColor: "Escolher cor" };
const en: typeof pt = { searchHint: "Type at least 3 characters.", clearSearch: "Clear search", pickColor: "Pick a colour" };
const es: typeof pt = { searchHint: "Escriba al menos 3 caracteres.", clearSearch: "Limpiar búsqueda", pickColor: "Elegir color" };

export const kitTexts = { pt, en, es };
registerTexts("kit", kitTexts);

/** Messages of the kit's rules beyond the product's four ('Required', 'Too Short!', 'Too Long!', 'Invalid email'; `validation.*`). */
export const kitValidationTexts = {
  pt: { invalidColor: "Cor inválida", invalidNumber: "Número inválido" },
  en: { invalidColor: "Invalid colour", invalidNumber: "Invalid number" },
  es: { invalidColor: "Color inválido", invalidNumber: "Número inválido" },
};
registerTexts("validation", kitValidationTexts);
