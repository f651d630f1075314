/** Texts of the contact drawer's personal-data section (`privacy.*`) in pt, en and es. */
import { defineTexts } from "../../i18n/index.ts";

export const privacyTexts = defineTexts({
  title: ["Dados pessoais (LGPD)", "Personal data (LGPD)", "Datos personales (LGPD)"],
  hint: [
    "Exporte tudo o que está guardado sobre este contato, ou apague tudo.",
    "Export everything stored about this contact, or erase all of it.",
    "Exporte todo lo guardado sobre este contacto, o bórrelo todo.",
  ],
  export: ["Exportar dados", "Export data", "Exportar datos"],
  erase: ["Apagar dados", "Erase data", "Borrar datos"],
  exportTitle: ["Exportar os dados deste contato?", "Export this contact's data?", "¿Exportar los datos de este contacto?"],
  exportMessage: [
    "Um arquivo .zip com o contato, os atendimentos, as mensagens, as notas e os arquivos será preparado. A exportação fica registrada.",
    "A .zip file with the contact, its tickets, messages, notes and files will be prepared. The export is recorded.",
    "Se preparará un archivo .zip con el contacto, sus atenciones, mensajes, notas y archivos. La exportación queda registrada.",
  ],
  eraseTitle: ["Apagar todos os dados deste contato?", "Erase all of this contact's data?", "¿Borrar todos los datos de este contacto?"],
  eraseMessage: [
    "O contato, os atendimentos, as mensagens, as notas, os arquivos e os identificadores do WhatsApp serão apagados para sempre. Esta ação não pode ser desfeita e fica registrada.",
    "The contact, its tickets, messages, notes, files and WhatsApp identifiers will be erased for good. This cannot be undone and is recorded.",
    "El contacto, sus atenciones, mensajes, notas, archivos e identificadores de WhatsApp se borrarán para siempre. No se puede deshacer y queda registrado.",
  ],
  download: ["Baixar o arquivo", "Download the file", "Descargar el archivo"],
  erased: ["Dados do contato apagados.", "The contact's data was erased.", "Datos del contacto borrados."],
});
