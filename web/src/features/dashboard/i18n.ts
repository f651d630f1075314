/**
 * Texts of the dashboard (`dashboard.*`, plus `menu.dashboard`) in pt, en and es. Spec texts are verbatim in pt:
 * 'Parametrize o filtro', '1 - Insatisfeito, 2 - Satisfeito, 3 - Muito Satisfeito', 'Das H:00 as H:59',
 * 'Erro ao obter informações da conversa', 'Erro ao buscar informações dos tickets'.
 */
import { defineTexts } from "../../i18n/index.ts";

export const dashboardTexts = defineTexts({
  title: ["Dashboard", "Dashboard", "Panel"],
  filterType: ["Tipo de filtro", "Filter type", "Tipo de filtro"],
  byPeriod: ["Filtro por período", "Filter by period", "Filtro por período"],
  byDates: ["Filtro por data", "Filter by date", "Filtro por fecha"],
  period: ["Período", "Period", "Período"],
  none: ["Nenhum selecionado", "None selected", "Ninguno seleccionado"],
  lastDays: ["Últimos {{count}} dias", "Last {{count}} days", "Últimos {{count}} días"],
  dateFrom: ["Data inicial", "Date from", "Fecha inicial"],
  dateTo: ["Data final", "Date to", "Fecha final"],
  filter: ["Filtrar", "Filter", "Filtrar"],
  parametrize: ["Parametrize o filtro", "Set up the filter", "Configure el filtro"],
  totalWhatsappSessions: ["Conexões ativas", "Active connections", "Conexiones activas"],
  totalCompanies: ["Empresas", "Companies", "Empresas"],
  supportHappening: ["Em conversa", "In conversation", "En conversación"],
  supportPending: ["Aguardando", "Waiting", "Esperando"],
  supportFinished: ["Finalizados", "Finished", "Finalizados"],
  newContacts: ["Novos contatos", "New contacts", "Nuevos contactos"],
  avgSupportTime: ["T.M. de conversa", "Avg. conversation time", "T.P. de conversación"],
  avgWaitTime: ["T.M. de espera", "Avg. wait time", "T.P. de espera"],
  hoursMinutes: ["{{h}}h {{m}}m", "{{h}}h {{m}}m", "{{h}}h {{m}}m"],
  attendants: ["Atendentes", "Attendants", "Agentes"],
  name: ["Nome", "Name", "Nombre"],
  ratings: ["Avaliações", "Ratings", "Calificaciones"],
  ratingsTooltip: ["1 - Insatisfeito, 2 - Satisfeito, 3 - Muito Satisfeito", "1 - Dissatisfied, 2 - Satisfied, 3 - Very satisfied", "1 - Insatisfecho, 2 - Satisfecho, 3 - Muy satisfecho"],
  rated: ["Nota {{rating}} de 3", "Rated {{rating}} of 3", "Nota {{rating}} de 3"],
  status: ["Status (atual)", "Status (now)", "Estado (actual)"],
  online: ["Online", "Online", "En línea"],
  offline: ["Offline", "Offline", "Desconectado"],
  noAttendants: ["Nenhum atendente", "No attendants", "Ningún agente"],
  ticketsUsers: ["Conversas por usuário", "Conversations per user", "Conversaciones por usuario"],
  ticketsDay: ["Tickets por dia", "Tickets per day", "Tickets por día"],
  ticketsHour: ["Tickets por hora", "Tickets per hour", "Tickets por hora"],
  hourLabel: ["Das {{h}}:00 as {{h}}:59", "From {{h}}:00 to {{h}}:59", "De {{h}}:00 a {{h}}:59"],
  total: ["Total: {{count}}", "Total: {{count}}", "Total: {{count}}"],
  tickets: ["Tickets", "Tickets", "Tickets"],
  noData: ["Nenhum ticket no período", "No tickets in the period", "Ningún ticket en el período"],
  errorUsers: ["Erro ao obter informações da conversa", "Could not load the conversations' information", "Error al obtener información de la conversación"],
  errorDay: ["Erro ao buscar informações dos tickets", "Could not load the tickets' information", "Error al buscar información de los tickets"],
  loading: ["Carregando…", "Loading…", "Cargando…"],
});
export const dashboardMenuTexts = defineTexts({ dashboard: ["Dashboard", "Dashboard", "Panel"] });
