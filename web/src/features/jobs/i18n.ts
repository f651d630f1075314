/** Texts of a background job's progress (`jobs.*`) in pt, en and es, per job kind: running (with and without the count), done. */
import { defineTexts } from "../../i18n/index.ts";

export const jobsTexts = defineTexts({
  deleteTag: {
    counting: ["Excluindo etiqueta…", "Deleting tag…", "Eliminando etiqueta…"],
    running: ["Excluindo etiqueta… {{done}}/{{total}}", "Deleting tag… {{done}}/{{total}}", "Eliminando etiqueta… {{done}}/{{total}}"],
    done: ["Etiqueta removida de {{done}} atendimento(s).", "Tag taken off {{done}} ticket(s).", "Etiqueta quitada de {{done}} atención(es)."],
  },
  closeAllTickets: {
    counting: ["Fechando atendimentos…", "Closing tickets…", "Cerrando atenciones…"],
    running: ["Fechando atendimentos… {{done}}/{{total}}", "Closing tickets… {{done}}/{{total}}", "Cerrando atenciones… {{done}}/{{total}}"],
    done: ["{{done}} atendimento(s) fechado(s).", "{{done}} ticket(s) closed.", "{{done}} atención(es) cerrada(s)."],
  },
  stopped: ["A tarefa parou: {{reason}}", "The task stopped: {{reason}}", "La tarea se detuvo: {{reason}}"],
  importContactList: {
    counting: ["Importando planilha…", "Importing spreadsheet…", "Importando planilla…"],
    running: ["Importando planilha… {{done, number}} de {{total, number}}", "Importing spreadsheet… {{done, number}} of {{total, number}}", "Importando planilla… {{done, number}} de {{total, number}}"],
    done: ["Importação concluída: {{done, number}} contato(s) gravado(s).", "Import finished: {{done, number}} contact(s) written.", "Importación concluida: {{done, number}} contacto(s) guardado(s)."],
  },
  failed: ["Não foi possível acompanhar o progresso. Atualize a página.", "Could not follow the progress. Reload the page.", "No se pudo seguir el progreso. Recargue la página."],
  dismiss: ["Fechar", "Close", "Cerrar"],
});
