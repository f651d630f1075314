/** Texts of the file lists page and modal (`fileLists.*`, `menu.files`, its error code) in pt, en and es; 'nome muito curto' verbatim. */
import { defineTexts, type TextBundles } from "../../i18n/index.ts";

export const fileListsTexts = defineTexts({
  title: ["Listas de arquivos", "File lists", "Listas de archivos"],
  searchPlaceholder: ["Pesquisar lista", "Search list", "Buscar lista"],
  add: ["Adicionar", "Add", "Agregar"],
  addTitle: ["Adicionar lista de arquivos", "Add file list", "Agregar lista de archivos"],
  editTitle: ["Editar lista de arquivos", "Edit file list", "Editar lista de archivos"],
  count: ["{{count}} lista(s)", "{{count}} list(s)", "{{count}} lista(s)"],
  name: ["Nome", "Name", "Nombre"],
  message: ["Mensagem", "Message", "Mensaje"],
  files: ["Arquivos", "Files", "Archivos"],
  optionName: ["Nome do arquivo", "File name", "Nombre del archivo"],
  addOption: ["Adicionar arquivo", "Add file", "Agregar archivo"],
  removeOption: ["Remover", "Remove", "Quitar"],
  chooseFile: ["Escolher arquivo", "Choose file", "Elegir archivo"],
  noFile: ["Nenhum arquivo", "No file", "Ningún archivo"],
  saved: ["Lista de arquivos salva com sucesso!", "File list saved successfully!", "¡Lista de archivos guardada con éxito!"],
  deleted: ["Lista de arquivos excluída com sucesso!", "File list deleted successfully!", "¡Lista de archivos eliminada con éxito!"],
  validation: {
    nameTooShort: ["nome muito curto", "name too short", "nombre muy corto"],
    required: ["Obrigatório", "Required", "Obligatorio"],
  },
});
export const fileListsMenuTexts = defineTexts({ files: ["Lista de arquivos", "File lists", "Lista de archivos"] });

export const fileListsErrorTexts: TextBundles<Record<string, string>> = {
  pt: { ERR_NO_FILE_LIST_FOUND: "Lista de arquivos não encontrada." },
  en: { ERR_NO_FILE_LIST_FOUND: "File list not found." },
  es: { ERR_NO_FILE_LIST_FOUND: "Lista de archivos no encontrada." },
};
