/** Texts of the reports (`reports.*`, plus `menu.reports`) and the export's progress (`jobs.exportReport.*`) in pt, en and es. */
import { defineTexts } from "../../i18n/index.ts";

export const reportsTexts = defineTexts({
  title: ["Relatórios", "Reports", "Informes"],
  filters: ["Filtros", "Filters", "Filtros"],
  dateFrom: ["Data inicial", "Date from", "Fecha inicial"],
  dateTo: ["Data final", "Date to", "Fecha final"],
  defaultPeriod: ["Sem datas: últimos 30 dias", "No dates: last 30 days", "Sin fechas: últimos 30 días"],
  status: ["Status", "Status", "Estado"],
  queue: ["Fila", "Queue", "Cola"],
  user: ["Atendente", "Attendant", "Agente"],
  whatsapp: ["Conexão", "Connection", "Conexión"],
  tag: ["Etiqueta", "Tag", "Etiqueta"],
  contact: ["Contato", "Contact", "Contacto"],
  rate: ["Avaliação", "Rating", "Calificación"],
  all: ["Todos", "All", "Todos"],
  filter: ["Filtrar", "Filter", "Filtrar"],
  clear: ["Limpar", "Clear", "Limpiar"],
  statuses: {
    open: ["Em atendimento", "In conversation", "En atención"],
    pending: ["Aguardando", "Waiting", "Esperando"],
    closed: ["Finalizado", "Finished", "Finalizado"],
  },
  rates: ["{{rate}} - {{label}}", "{{rate}} - {{label}}", "{{rate}} - {{label}}"],
  rateLabels: {
    1: ["Insatisfeito", "Dissatisfied", "Insatisfecho"],
    2: ["Satisfeito", "Satisfied", "Satisfecho"],
    3: ["Muito Satisfeito", "Very satisfied", "Muy satisfecho"],
  },
  ticket: ["Ticket", "Ticket", "Ticket"],
  openedAt: ["Aberto em", "Opened", "Abierto"],
  acceptedAt: ["Aceito em", "Accepted", "Aceptado"],
  closedAt: ["Fechado em", "Closed", "Cerrado"],
  wait: ["Espera", "Wait", "Espera"],
  handling: ["Duração", "Handling", "Duración"],
  noRate: ["Sem avaliação", "Not rated", "Sin calificación"],
  rowLabel: ["Abrir o histórico do ticket {{id}}", "Open ticket {{id}}'s history", "Abrir el historial del ticket {{id}}"],
  empty: ["Nenhum atendimento neste período com estes filtros.", "No attendance in this period with these filters.", "Ninguna atención en este período con estos filtros."],
  loadError: ["Não foi possível carregar o relatório.", "Could not load the report.", "No se pudo cargar el informe."],
  retry: ["Tentar de novo", "Try again", "Reintentar"],
  loading: ["Carregando…", "Loading…", "Cargando…"],
  shown: ["{{count}} atendimento(s) carregado(s)", "{{count}} attendance(s) loaded", "{{count}} atención(es) cargada(s)"],
  exportXlsx: ["Exportar .xlsx", "Export .xlsx", "Exportar .xlsx"],
  exportCsv: ["Exportar .csv", "Export .csv", "Exportar .csv"],
  download: ["Baixar {{name}}", "Download {{name}}", "Descargar {{name}}"],
  history: ["Histórico do ticket {{id}}", "Ticket {{id}} history", "Historial del ticket {{id}}"],
  historyReadOnly: ["Somente leitura", "Read only", "Solo lectura"],
  noMessages: ["Nenhuma mensagem neste ticket.", "No messages in this ticket.", "Ningún mensaje en este ticket."],
  earlier: ["Carregar mensagens anteriores", "Load earlier messages", "Cargar mensajes anteriores"],
  close: ["Fechar", "Close", "Cerrar"],
  attendances: ["Atendimentos", "Attendances", "Atenciones"],
  attendancesEmpty: ["Nenhum atendimento anterior deste contato.", "No earlier attendance of this contact.", "Ninguna atención anterior de este contacto."],
  attendancesMore: ["Mostrando os 100 mais recentes.", "Showing the 100 most recent.", "Mostrando las 100 más recientes."],
  open: ["Ver", "View", "Ver"],
});

export const reportsMenuTexts = defineTexts({ reports: ["Relatórios", "Reports", "Informes"] });

/** The export's progress texts, under `jobs.exportReport` (the jobs feature's progress reads them by kind). */
export const exportJobTexts = defineTexts({
  exportReport: {
    counting: ["Exportando relatório…", "Exporting report…", "Exportando informe…"],
    running: ["Exportando relatório… {{done}} linha(s)", "Exporting report… {{done}} row(s)", "Exportando informe… {{done}} registro(s)"],
    done: ["Relatório exportado: {{done}} linha(s).", "Report exported: {{done}} row(s).", "Informe exportado: {{done}} registro(s)."],
  },
});
