/**
 * Texts of the contact lists pages and dialogs (`contactLists.*`, `contactListItems.*`, `menu.contact-lists`, and the
 * feature's error codes) in pt, en and es.
 */
import { defineTexts, type TextBundles } from "../../i18n/index.ts";

export const contactListsTexts = defineTexts({
  title: ["Listas de contatos", "Contact lists", "Listas de contactos"],
  searchPlaceholder: ["Pesquisar lista", "Search list", "Buscar lista"],
  add: ["Adicionar", "Add", "Agregar"],
  addTitle: ["Adicionar lista de contatos", "Add contact list", "Agregar lista de contactos"],
  editTitle: ["Editar lista de contatos", "Edit contact list", "Editar lista de contactos"],
  count: ["{{count, number}} lista(s)", "{{count, number}} list(s)", "{{count, number}} lista(s)"],
  name: ["Nome", "Name", "Nombre"],
  contactsCount: ["Contatos", "Contacts", "Contactos"],
  saved: ["Lista de contatos salva com sucesso!", "Contact list saved successfully!", "¡Lista de contactos guardada con éxito!"],
  deleted: ["Lista de contatos excluída com sucesso!", "Contact list deleted successfully!", "¡Lista de contactos eliminada con éxito!"],
  downloadExample: ["Baixar planilha exemplo", "Download example spreadsheet", "Descargar planilla de ejemplo"],
  openItems: ["Ver contatos", "Open contacts", "Ver contactos"],
});

export const contactListItemsTexts = defineTexts({
  title: ["Contatos da lista", "List contacts", "Contactos de la lista"],
  searchPlaceholder: ["Pesquisar nome, número ou e-mail", "Search name, number or e-mail", "Buscar nombre, número o correo"],
  add: ["Adicionar", "Add", "Agregar"],
  addTitle: ["Adicionar contato", "Add contact", "Agregar contacto"],
  editTitle: ["Editar contato", "Edit contact", "Editar contacto"],
  count: ["{{count, number}} contato(s)", "{{count, number}} contact(s)", "{{count, number}} contacto(s)"],
  back: ["Voltar", "Back", "Volver"],
  import: ["Importar", "Import", "Importar"],
  name: ["Nome", "Name", "Nombre"],
  number: ["Número", "Number", "Número"],
  numberHint: ["Com código do país e DDD, ex.: 55 11 99999-0000", "With country and area code, e.g. 55 11 99999-0000", "Con código de país y de área, ej.: 55 11 99999-0000"],
  email: ["E-mail", "E-mail", "Correo"],
  whatsapp: ["WhatsApp", "WhatsApp", "WhatsApp"],
  valid: ["Válido", "Valid", "Válido"],
  invalid: ["Inválido", "Invalid", "Inválido"],
  unchecked: ["Verificando…", "Checking…", "Verificando…"],
  saved: ["Contato salvo com sucesso!", "Contact saved successfully!", "¡Contacto guardado con éxito!"],
  deleted: ["Contato excluído com sucesso!", "Contact deleted successfully!", "¡Contacto eliminado con éxito!"],
  importTitle: ["Importar planilha", "Import spreadsheet", "Importar planilla"],
  importHint: [
    "Planilha .xls ou .xlsx com as colunas nome, numero e email (a primeira aba é lida).",
    "An .xls or .xlsx spreadsheet with the columns name, number and email (the first sheet is read).",
    "Planilla .xls o .xlsx con las columnas nombre, número y correo (se lee la primera hoja).",
  ],
  importHintContacts: [
    "Planilha .xls, .xlsx ou .csv com as colunas nome, numero e email (a primeira aba é lida).",
    "An .xls, .xlsx or .csv spreadsheet with the columns name, number and email (the first sheet is read).",
    "Planilla .xls, .xlsx o .csv con las columnas nombre, número y correo (se lee la primera hoja).",
  ],
  chooseFile: ["Escolher arquivo", "Choose file", "Elegir archivo"],
  previewing: ["Lendo a planilha…", "Reading the spreadsheet…", "Leyendo la planilla…"],
  confirmImport: ["Importar {{count}} contato(s)", "Import {{count}} contact(s)", "Importar {{count}} contacto(s)"],
  importing: ["Importando… {{done, number}} de {{total, number}}", "Importing… {{done, number}} of {{total, number}}", "Importando… {{done, number}} de {{total, number}}"],
  sending: ["Enviando planilha…", "Sending the spreadsheet…", "Enviando planilla…"],
  importingBackground: [
    "Você pode fechar esta janela: a importação continua e a lista é atualizada ao terminar.",
    "You may close this window: the import goes on and the list refreshes when it ends.",
    "Puede cerrar esta ventana: la importación continúa y la lista se actualiza al terminar.",
  ],
  importDone: ["Importação concluída", "Import finished", "Importación concluida"],
  close: ["Fechar", "Close", "Cerrar"],
  summary: [
    "{{added, number}} novo(s), {{updated, number}} atualizado(s), {{skipped, number}} ignorado(s)",
    "{{added, number}} new, {{updated, number}} updated, {{skipped, number}} skipped",
    "{{added, number}} nuevo(s), {{updated, number}} actualizado(s), {{skipped, number}} omitido(s)",
  ],
  previewSummary: [
    "Serão {{added, number}} novo(s), {{updated, number}} atualizado(s), {{skipped, number}} ignorado(s)",
    "Will be {{added, number}} new, {{updated, number}} updated, {{skipped, number}} skipped",
    "Serán {{added, number}} nuevo(s), {{updated, number}} actualizado(s), {{skipped, number}} omitido(s)",
  ],
  row: ["Linha", "Row", "Línea"],
  result: ["Resultado", "Result", "Resultado"],
  status: {
    added: ["Novo", "New", "Nuevo"],
    updated: ["Atualizado", "Updated", "Actualizado"],
    skipped: ["Ignorado", "Skipped", "Omitido"],
  },
  reason: {
    missingNumber: ["sem número", "no number", "sin número"],
    invalidNumber: ["número inválido", "invalid number", "número inválido"],
    duplicate: ["repetido da linha {{row}}", "duplicate of row {{row}}", "repetido de la línea {{row}}"],
    invalidEmail: ["e-mail inválido descartado", "invalid e-mail dropped", "correo inválido descartado"],
  },
});

export const contactListsMenuTexts = defineTexts({ "contact-lists": ["Listas de contatos", "Contact lists", "Listas de contactos"] });

/** The contact lists' error codes (`shared/src/contactLists/errors.ts`). */
export const contactListsErrorTexts: TextBundles<Record<string, string>> = {
  pt: {
    ERR_NO_CONTACT_LIST_FOUND: "Lista de contatos não encontrada.",
    ERR_NO_CONTACT_LIST_ITEM_FOUND: "Contato da lista não encontrado.",
    ERR_CONTACT_LIST_ITEM_DUPLICATED: "Este número já está na lista.",
    ERR_INVALID_PHONE_NUMBER: "Número de telefone inválido.",
    ERR_IMPORT_FILE_TYPE: "Tipo de arquivo não aceito.",
    ERR_IMPORT_FILE_UNREADABLE: "Não foi possível ler a planilha.",
  },
  en: {
    ERR_NO_CONTACT_LIST_FOUND: "Contact list not found.",
    ERR_NO_CONTACT_LIST_ITEM_FOUND: "List contact not found.",
    ERR_CONTACT_LIST_ITEM_DUPLICATED: "This number is already in the list.",
    ERR_INVALID_PHONE_NUMBER: "Invalid phone number.",
    ERR_IMPORT_FILE_TYPE: "File type not accepted.",
    ERR_IMPORT_FILE_UNREADABLE: "The spreadsheet could not be read.",
  },
  es: {
    ERR_NO_CONTACT_LIST_FOUND: "Lista de contactos no encontrada.",
    ERR_NO_CONTACT_LIST_ITEM_FOUND: "Contacto de la lista no encontrado.",
    ERR_CONTACT_LIST_ITEM_DUPLICATED: "Este número ya está en la lista.",
    ERR_INVALID_PHONE_NUMBER: "Número de teléfono inválido.",
    ERR_IMPORT_FILE_TYPE: "Tipo de archivo no aceptado.",
    ERR_IMPORT_FILE_UNREADABLE: "No fue posible leer la planilla.",
  },
};
