/**
 * Texts of the help videos page and of the super users' Ajuda tab of /settings (`helps.*`, plus `menu.helps`,
 * `settings.tabHelps` and the error `ERR_NO_HELP_FOUND`) in pt, en and es. Spec texts are verbatim: the tab's name
 * 'Ajuda', 'Obrigatório' and the save failure 'Não foi possível realizar a operação...'.
 */
import { defineTexts } from "../../i18n/index.ts";

export const helpsTexts = defineTexts({
  title: ["Ajuda", "Help", "Ayuda"],
  subtitle: ["Vídeos que mostram como usar a plataforma.", "Videos that show how to use the platform.", "Videos que muestran cómo usar la plataforma."],
  empty: ["Nenhum vídeo de ajuda disponível ainda.", "No help videos yet.", "Todavía no hay videos de ayuda."],
  play: ["Assistir: {{title}}", "Watch: {{title}}", "Ver: {{title}}"],
  player: ["Vídeo: {{title}}", "Video: {{title}}", "Video: {{title}}"],
  count: ["{{count}} vídeo(s)", "{{count}} video(s)", "{{count}} video(s)"],
  helpTitle: ["Título", "Title", "Título"],
  description: ["Descrição", "Description", "Descripción"],
  video: ["Código do vídeo", "Video code", "Código del video"],
  videoHint: [
    "O código do vídeo no YouTube (ou cole o endereço do vídeo).",
    "The YouTube video's code (or paste the video's address).",
    "El código del video en YouTube (o pegue la dirección del video).",
  ],
  invalidVideo: ["Código de vídeo inválido", "Invalid video code", "Código de video no válido"],
  required: ["Obrigatório", "Required", "Obligatorio"],
  add: ["Adicionar", "Add", "Agregar"],
  update: ["Atualizar", "Update", "Actualizar"],
  clear: ["Limpar", "Clear", "Limpiar"],
  editing: ["Editando: {{title}}", "Editing: {{title}}", "Editando: {{title}}"],
  saved: ["Operação realizada com sucesso!", "Operation completed successfully!", "¡Operación realizada con éxito!"],
  deleted: ["Vídeo de ajuda excluído com sucesso!", "Help video deleted successfully!", "¡Video de ayuda eliminado con éxito!"],
  saveFailed: [
    "Não foi possível realizar a operação. Verifique se já existe uma help com o mesmo nome ou se os campos foram preenchidos corretamente",
    "The operation could not be completed. Check whether a help with the same name exists or whether the fields were filled in correctly",
    "No se pudo realizar la operación. Verifique si ya existe una ayuda con el mismo nombre o si los campos se completaron correctamente",
  ],
  loadFailed: ["Não foi possível carregar a lista de registros", "The list of records could not be loaded", "No se pudo cargar la lista de registros"],
  deleteFailed: ["Não foi possível realizar a operação", "The operation could not be completed", "No se pudo realizar la operación"],
  noThumbnail: ["Sem miniatura", "No thumbnail", "Sin miniatura"],
});
export const helpsMenuTexts = defineTexts({ helps: ["Ajuda", "Help", "Ayuda"] });
export const helpsSettingsTexts = defineTexts({ tabHelps: ["Ajuda", "Help", "Ayuda"] });
export const helpsErrorTexts = defineTexts({
  ERR_NO_HELP_FOUND: ["Vídeo de ajuda não encontrado.", "Help video not found.", "Video de ayuda no encontrado."],
});
