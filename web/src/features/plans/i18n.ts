/** Texts of the super user's Planos tab (`plans.*`) in pt, en and es; 'Obrigatório' verbatim. */
import { defineTexts } from "../../i18n/index.ts";

export const plansTexts = defineTexts({
  tab: ["Planos", "Plans", "Planes"],
  title: ["Planos", "Plans", "Planes"],
  add: ["Adicionar", "Add", "Agregar"],
  addTitle: ["Adicionar plano", "Add plan", "Agregar plan"],
  editTitle: ["Editar plano", "Edit plan", "Editar plan"],
  count: ["{{count}} plano(s)", "{{count}} plan(s)", "{{count}} plan(es)"],
  name: ["Nome", "Name", "Nombre"],
  users: ["Usuários", "Users", "Usuarios"],
  connections: ["Conexões", "Connections", "Conexiones"],
  queues: ["Filas", "Queues", "Colas"],
  value: ["Valor (R$)", "Value (R$)", "Valor (R$)"],
  price: ["Valor", "Price", "Valor"],
  features: ["Recursos", "Features", "Recursos"],
  useCampaigns: ["Campanhas", "Campaigns", "Campañas"],
  useSchedules: ["Agendamentos", "Schedules", "Agendamientos"],
  useInternalChat: ["Chat interno", "Internal chat", "Chat interno"],
  useExternalApi: ["API externa", "External API", "API externa"],
  useKanban: ["Kanban", "Kanban", "Kanban"],
  useOpenAi: ["OpenAI", "OpenAI", "OpenAI"],
  useIntegrations: ["Integrações", "Integrations", "Integraciones"],
  saved: ["Plano salvo com sucesso!", "Plan saved successfully!", "¡Plan guardado con éxito!"],
  deleted: ["Plano excluído com sucesso!", "Plan deleted successfully!", "¡Plan eliminado con éxito!"],
  required: ["Obrigatório", "Required", "Obligatorio"],
  notNegative: ["Não pode ser negativo", "Cannot be negative", "No puede ser negativo"],
});
