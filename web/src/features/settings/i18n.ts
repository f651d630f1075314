/**
 * Texts of the Settings page (`settings.*`, plus `menu.settings`) in pt, en and es. The product's fixed texts verbatim:
 * 'Operação atualizada com sucesso.', 'Horários atualizados com sucesso.'; the option labels
 * follow the product's Settings screen (docs/product/settings.md).
 */
import type { TextBundles } from "../../i18n/index.ts";

const pt = {
  title: "Configurações",
  tabOptions: "Opções",
  tabHours: "Horários",
  updated: "Operação atualizada com sucesso.",
  hoursUpdated: "Horários atualizados com sucesso.",
  enabled: "Habilitado",
  disabled: "Desabilitado",
  keys: {
    userRating: "Avaliações",
    scheduleType: "Gerenciamento de expediente",
    CheckMsgIsGroup: "Ignorar mensagens de grupos",
    call: "Aceitar chamadas",
    chatBotType: "Tipo do chatbot",
    sendGreetingAccepted: "Enviar saudação ao aceitar o atendimento",
    sendMsgTransfTicket: "Enviar mensagem de transferência de fila/agente",
    sendGreetingMessageOneQueues: "Enviar saudação quando houver somente 1 fila",
    viewclosed: "Agente vê atendimentos fechados",
    viewgroups: "Agente vê grupos",
  },
  values: {
    queue: "Fila",
    company: "Empresa",
    text: "Texto",
    acceptCall: "Aceitar",
    rejectCall: "Não aceitar",
  },
  timezone: "Fuso horário",
  hoursHint: "Horário de atendimento da empresa. 00:00 a 00:00 = fechado.",
  save: "Salvar horários",
};
const en: typeof pt = {
  title: "Settings",
  tabOptions: "Options",
  tabHours: "Hours",
  updated: "Operation updated successfully.",
  hoursUpdated: "Hours updated successfully.",
  enabled: "Enabled",
  disabled: "Disabled",
  keys: {
    userRating: "Ratings",
    scheduleType: "Working-hours management",
    CheckMsgIsGroup: "Ignore group messages",
    call: "Accept calls",
    chatBotType: "Chatbot type",
    sendGreetingAccepted: "Send a greeting when a ticket is accepted",
    sendMsgTransfTicket: "Send a message on queue/agent transfer",
    sendGreetingMessageOneQueues: "Send the greeting when there is only 1 queue",
    viewclosed: "Agents see closed tickets",
    viewgroups: "Agents see groups",
  },
  values: {
    queue: "Queue",
    company: "Company",
    text: "Text",
    acceptCall: "Accept",
    rejectCall: "Do not accept",
  },
  timezone: "Time zone",
  hoursHint: "The company's opening hours. 00:00 to 00:00 = closed.",
  save: "Save hours",
};
const es: typeof pt = {
  title: "Configuraciones",
  tabOptions: "Opciones",
  tabHours: "Horarios",
  updated: "Operación actualizada con éxito.",
  hoursUpdated: "Horarios actualizados con éxito.",
  enabled: "Habilitado",
  disabled: "Deshabilitado",
  keys: {
    userRating: "Evaluaciones",
    scheduleType: "Gestión de horario",
    CheckMsgIsGroup: "Ignorar mensajes de grupos",
    call: "Aceptar llamadas",
    chatBotType: "Tipo de chatbot",
    sendGreetingAccepted: "Enviar saludo al aceptar la atención",
    sendMsgTransfTicket: "Enviar mensaje de transferencia de cola/agente",
    sendGreetingMessageOneQueues: "Enviar saludo cuando haya solo 1 cola",
    viewclosed: "El agente ve atenciones cerradas",
    viewgroups: "El agente ve grupos",
  },
  values: {
    queue: "Cola",
    company: "Empresa",
    text: "Texto",
    acceptCall: "Aceptar",
    rejectCall: "No aceptar",
  },
  timezone: "Zona horaria",
  hoursHint: "Horario de atención de la empresa. 00:00 a 00:00 = cerrado.",
  save: "Guardar horarios",
};

export const settingsTexts: TextBundles<typeof pt> = { pt, en, es };
export const settingsMenuTexts: TextBundles<{ settings: string }> = { pt: { settings: "Configurações" }, en: { settings: "Settings" }, es: { settings: "Configuraciones" } };
