/**
 * Texts of the schedules page, calendar, dialog, conversation button and contact-drawer section (`schedules.*`, plus
 * `menu.schedules` and the feature's error codes) in pt, en and es. Spec texts are verbatim: 'Mensagem muito curta',
 * 'Obrigatório', 'Erro de Envio'.
 */
import { defineTexts } from "../../i18n/index.ts";

export const schedulesTexts = defineTexts({
  title: ["Agendamentos", "Schedules", "Agendamientos"],
  add: ["Novo agendamento", "New schedule", "Nuevo agendamiento"],
  searchPlaceholder: ["Pesquisar mensagem ou contato", "Search message or contact", "Buscar mensaje o contacto"],
  count: ["{{count}} agendamento(s)", "{{count}} schedule(s)", "{{count}} agendamiento(s)"],
  calendar: ["Calendário", "Calendar", "Calendario"],
  list: ["Lista", "List", "Lista"],
  addTitle: ["Agendar mensagem", "Schedule a message", "Agendar mensaje"],
  editTitle: ["Editar agendamento", "Edit schedule", "Editar agendamiento"],
  sentTitle: ["Mensagem enviada", "Message sent", "Mensaje enviado"],
  errorTitle: ["Erro de Envio", "Sending error", "Error de envío"],
  contact: ["Contato", "Contact", "Contacto"],
  body: ["Mensagem", "Message", "Mensaje"],
  sendAt: ["Data de envio", "Send at", "Fecha de envío"],
  status: ["Status", "Status", "Estado"],
  picture: ["Imagem (png, jpg, jpeg)", "Picture (png, jpg, jpeg)", "Imagen (png, jpg, jpeg)"],
  attach: ["Anexar imagem", "Attach picture", "Adjuntar imagen"],
  removePicture: ["Remover imagem", "Remove picture", "Quitar imagen"],
  pictureType: ["Apenas arquivos png, jpg ou jpeg", "Only png, jpg or jpeg files", "Solo archivos png, jpg o jpeg"],
  variablesHint: ["Variáveis: {{vars}}", "Variables: {{vars}}", "Variables: {{vars}}"],
  readOnly: ["Já enviada: não pode ser alterada.", "Already sent: it can no longer be changed.", "Ya enviado: no se puede cambiar."],
  saved: ["Agendamento salvo com sucesso!", "Schedule saved successfully!", "¡Agendamiento guardado con éxito!"],
  deleted: ["Agendamento excluído com sucesso!", "Schedule deleted successfully!", "¡Agendamiento eliminado con éxito!"],
  empty: ["Nenhum agendamento.", "No schedules.", "Ningún agendamiento."],
  loading: ["Carregando…", "Loading…", "Cargando…"],
  late: ["Enviada com atraso de {{minutes}} min", "Sent {{minutes}} min late", "Enviado con {{minutes}} min de retraso"],
  sentAt: ["Enviada em {{when}}", "Sent on {{when}}", "Enviado el {{when}}"],
  action: ["Agendar mensagem", "Schedule message", "Agendar mensaje"],
  drawerTitle: ["Agendamentos", "Schedules", "Agendamientos"],
  tooShort: ["Mensagem muito curta", "Message too short", "Mensaje muy corto"],
  required: ["Obrigatório", "Required", "Obligatorio"],
  statuses: {
    PENDENTE: ["Pendente", "Pending", "Pendiente"],
    AGENDADA: ["Agendada", "Scheduled", "Agendado"],
    ENVIADA: ["Enviada", "Sent", "Enviado"],
    ERRO: ["Erro", "Error", "Error"],
  },
  cal: {
    month: ["Mês", "Month", "Mes"],
    week: ["Semana", "Week", "Semana"],
    day: ["Dia", "Day", "Día"],
    agenda: ["Agenda", "Agenda", "Agenda"],
    today: ["Hoje", "Today", "Hoy"],
    previous: ["Anterior", "Back", "Anterior"],
    next: ["Próximo", "Next", "Siguiente"],
    date: ["Data", "Date", "Fecha"],
    time: ["Hora", "Time", "Hora"],
    event: ["Mensagem", "Message", "Mensaje"],
    noEvents: ["Nenhum agendamento neste período.", "No schedules in this period.", "Ningún agendamiento en este período."],
    allDay: ["Dia inteiro", "All day", "Todo el día"],
    more: ["+{{count}} mais", "+{{count}} more", "+{{count}} más"],
  },
});
export const schedulesMenuTexts = defineTexts({ schedules: ["Agendamentos", "Schedules", "Agendamientos"] });
export const schedulesErrorTexts = defineTexts({
  ERR_NO_SCHEDULE_FOUND: ["Agendamento não encontrado.", "Schedule not found.", "Agendamiento no encontrado."],
  ERR_SCHEDULE_ALREADY_SENT: ["Esta mensagem já foi enviada e não pode ser alterada.", "This message was already sent and can no longer be changed.", "Este mensaje ya fue enviado y no se puede cambiar."],
});
