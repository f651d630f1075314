/**
 * Texts of the announcements page, dialog and top-bar popover (`announcements.*`, plus `menu.announcements` and the
 * error code) in pt, en and es. Spec texts are verbatim: 'Ativo', 'Inativo', 'Obrigatório'.
 */
import { defineTexts, type TextBundles } from "../../i18n/index.ts";

export const announcementsTexts = defineTexts({
  title: ["Informativos", "Announcements", "Anuncios"],
  searchPlaceholder: ["Pesquisar título ou texto", "Search title or text", "Buscar título o texto"],
  add: ["Adicionar", "Add", "Agregar"],
  addTitle: ["Adicionar informativo", "Add announcement", "Agregar anuncio"],
  editTitle: ["Editar informativo", "Edit announcement", "Editar anuncio"],
  count: ["{{count}} informativo(s)", "{{count}} announcement(s)", "{{count}} anuncio(s)"],
  field_title: ["Título", "Title", "Título"],
  text: ["Texto", "Text", "Texto"],
  priority: ["Prioridade", "Priority", "Prioridad"],
  priority1: ["Alta", "High", "Alta"],
  priority2: ["Média", "Medium", "Media"],
  priority3: ["Baixa", "Low", "Baja"],
  status: ["Status", "Status", "Estado"],
  active: ["Ativo", "Active", "Activo"],
  inactive: ["Inativo", "Inactive", "Inactivo"],
  media: ["Imagem", "Image", "Imagen"],
  attach: ["Anexar imagem (.png, .jpg, .jpeg)", "Attach image (.png, .jpg, .jpeg)", "Adjuntar imagen (.png, .jpg, .jpeg)"],
  removeMedia: ["Remover imagem", "Remove image", "Quitar imagen"],
  badType: ["Somente arquivos .png, .jpg ou .jpeg", "Only .png, .jpg or .jpeg files", "Solo archivos .png, .jpg o .jpeg"],
  saved: ["Informativo salvo com sucesso!", "Announcement saved successfully!", "¡Anuncio guardado con éxito!"],
  deleted: ["Informativo excluído com sucesso!", "Announcement deleted successfully!", "¡Anuncio eliminado con éxito!"],
  required: ["Obrigatório", "Required", "Obligatorio"],
  popover: ["Informativos", "Announcements", "Anuncios"],
  popoverButton: ["Informativos: {{count}} não lido(s)", "Announcements: {{count}} unread", "Anuncios: {{count}} no leído(s)"],
  none: ["Nenhum informativo.", "No announcements.", "Ningún anuncio."],
});
export const announcementsMenuTexts = defineTexts({ announcements: ["Informativos", "Announcements", "Anuncios"] });

/** The announcements' error codes (`shared/src/announcements/errors.ts`). */
export const announcementsErrorTexts: TextBundles<Record<string, string>> = {
  pt: { ERR_NO_ANNOUNCEMENT_FOUND: "Informativo não encontrado." },
  en: { ERR_NO_ANNOUNCEMENT_FOUND: "Announcement not found." },
  es: { ERR_NO_ANNOUNCEMENT_FOUND: "Anuncio no encontrado." },
};
