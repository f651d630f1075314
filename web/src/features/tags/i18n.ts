/**
 * Texts of the tags page, tag dialog and ticket tags (`tags.*`, plus `menu.tags`) in pt, en and es, written once per
 * key (`defineTexts`). The product's fixed texts are verbatim: 'Obrigatório', 'Mensagem muito curta' (tag name
 * validation), 'Ticket Tag Adicionado com Sucesso!', 'Ticket Tag Removido!'.
 */
import { defineTexts, type TextBundles } from "../../i18n/index.ts";

export const tagsTexts = defineTexts({
  title: ["Tags", "Tags", "Etiquetas"],
  searchPlaceholder: ["Pesquisar tags", "Search tags", "Buscar etiquetas"],
  add: ["Adicionar tag", "Add tag", "Agregar etiqueta"],
  addTitle: ["Adicionar tag", "Add tag", "Agregar etiqueta"],
  editTitle: ["Editar tag", "Edit tag", "Editar etiqueta"],
  name: ["Nome", "Name", "Nombre"],
  color: ["Cor", "Colour", "Color"],
  kanban: ["Kanban", "Kanban", "Kanban"],
  kanbanHint: ["Mostrar como coluna do Kanban", "Show as a Kanban column", "Mostrar como columna del Kanban"],
  ticketsCount: ["Atendimentos", "Tickets", "Atenciones"],
  count: ["{{count}} tag(s)", "{{count}} tag(s)", "{{count}} etiqueta(s)"],
  saved: ["Tag salva com sucesso!", "Tag saved successfully!", "¡Etiqueta guardada con éxito!"],
  deleted: ["Tag excluída com sucesso!", "Tag deleted successfully!", "¡Etiqueta eliminada con éxito!"],
  yes: ["Sim", "Yes", "Sí"],
  no: ["Não", "No", "No"],
  ticketTags: ["Tags do atendimento", "Ticket tags", "Etiquetas de la atención"],
  editTicketTags: ["Editar tags", "Edit tags", "Editar etiquetas"],
  noTags: ["Nenhuma tag cadastrada.", "No tags yet.", "No hay etiquetas."],
  added: ["Ticket Tag Adicionado com Sucesso!", "Ticket tag added successfully!", "¡Etiqueta agregada con éxito!"],
  removed: ["Ticket Tag Removido!", "Ticket tag removed!", "¡Etiqueta eliminada!"],
  filter: ["Filtrar por tags", "Filter by tags", "Filtrar por etiquetas"],
  filterCount: ["Tags ({{count}})", "Tags ({{count}})", "Etiquetas ({{count}})"],
  validation: {
    required: ["Obrigatório", "Required", "Obligatorio"],
    tooShort: ["Mensagem muito curta", "Message too short", "Mensaje muy corto"],
  },
});
export const tagsMenuTexts = defineTexts({ tags: ["Tags", "Tags", "Etiquetas"] });

/** The tags' error codes (`shared/src/tags/errors.ts`). */
export const tagsErrorTexts: TextBundles<Record<string, string>> = {
  pt: { ERR_TAG_NAME_ALREADY_EXISTS: "Já existe uma tag com este nome." },
  en: { ERR_TAG_NAME_ALREADY_EXISTS: "A tag with this name already exists." },
  es: { ERR_TAG_NAME_ALREADY_EXISTS: "Ya existe una etiqueta con este nombre." },
};
