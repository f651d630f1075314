/**
 * Texts of the quick messages page, dialog and the composer's list (`quickMessages.*`, plus `menu.quick-messages`)
 * in pt, en and es. Spec texts are verbatim: 'Obrigatório', 'Ativo', 'Inativo'.
 */
import { defineTexts } from "../../i18n/index.ts";

export const quickMessagesTexts = defineTexts({
  title: ["Respostas rápidas", "Quick replies", "Respuestas rápidas"],
  searchPlaceholder: ["Pesquisar atalho ou texto", "Search shortcode or text", "Buscar atajo o texto"],
  add: ["Adicionar", "Add", "Agregar"],
  addTitle: ["Adicionar resposta rápida", "Add quick reply", "Agregar respuesta rápida"],
  editTitle: ["Editar resposta rápida", "Edit quick reply", "Editar respuesta rápida"],
  count: ["{{count}} resposta(s)", "{{count}} reply(ies)", "{{count}} respuesta(s)"],
  shortcode: ["Atalho", "Shortcode", "Atajo"],
  shortcodeHint: ["Digite / e o atalho na conversa para usá-la.", "Type / and the shortcode in a conversation to use it.", "Escriba / y el atajo en la conversación para usarla."],
  message: ["Mensagem", "Message", "Mensaje"],
  variablesHint: ["Variáveis: {{vars}}", "Variables: {{vars}}", "Variables: {{vars}}"],
  status: ["Status", "Status", "Estado"],
  active: ["Ativo", "Active", "Activo"],
  inactive: ["Inativo", "Inactive", "Inactivo"],
  geral: ["Global", "Global", "Global"],
  media: ["Anexo", "Attachment", "Adjunto"],
  attach: ["Anexar arquivo", "Attach file", "Adjuntar archivo"],
  removeMedia: ["Remover anexo", "Remove attachment", "Quitar adjunto"],
  saved: ["Resposta rápida salva com sucesso!", "Quick reply saved successfully!", "¡Respuesta rápida guardada con éxito!"],
  deleted: ["Resposta rápida excluída com sucesso!", "Quick reply deleted successfully!", "¡Respuesta rápida eliminada con éxito!"],
  required: ["Obrigatório", "Required", "Obligatorio"],
});
export const quickMessagesMenuTexts = defineTexts({ "quick-messages": ["Respostas rápidas", "Quick replies", "Respuestas rápidas"] });
