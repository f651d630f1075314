/** Texts of this device's push notifications opt-in (`push.*`, and the error code) in pt, en and es. */
import { defineTexts } from "../../i18n/index.ts";

export const pushTexts = defineTexts({
  button: ["Notificações neste dispositivo", "Notifications on this device", "Notificaciones en este dispositivo"],
  title: ["Notificações neste dispositivo", "Notifications on this device", "Notificaciones en este dispositivo"],
  explain: [
    "Receba um aviso de novos tickets nas suas filas, mensagens dos seus atendimentos, do chat interno e informativos quando o Atende não estiver aberto na tela.",
    "Get notified of new tickets in your queues, messages in the tickets you hold, internal chat and announcements when Atende is not on screen.",
    "Reciba avisos de nuevos tickets en sus colas, mensajes de sus atenciones, del chat interno y anuncios cuando Atende no esté en pantalla.",
  ],
  toggle: ["Receber notificações", "Receive notifications", "Recibir notificaciones"],
  on: ["Ativadas neste dispositivo.", "On for this device.", "Activadas en este dispositivo."],
  off: ["Desativadas neste dispositivo.", "Off for this device.", "Desactivadas en este dispositivo."],
  loading: ["Verificando…", "Checking…", "Verificando…"],
  denied: [
    "O navegador bloqueou as notificações deste site. Libere-as nas configurações do site no navegador e tente de novo.",
    "The browser blocked notifications for this site. Allow them in the browser's site settings and try again.",
    "El navegador bloqueó las notificaciones de este sitio. Permítalas en la configuración del sitio en el navegador e intente de nuevo.",
  ],
  unsupported: [
    "Este navegador não permite notificações push. No iPhone, adicione o Atende à tela de início primeiro.",
    "This browser does not support push notifications. On an iPhone, add Atende to the home screen first.",
    "Este navegador no admite notificaciones push. En iPhone, agregue Atende a la pantalla de inicio primero.",
  ],
  unavailable: ["As notificações push não estão configuradas neste servidor.", "Push notifications are not set up on this server.", "Las notificaciones push no están configuradas en este servidor."],
  failed: ["Não foi possível ativar as notificações: {{error}}", "Could not turn notifications on: {{error}}", "No fue posible activar las notificaciones: {{error}}"],
});

export const pushErrorTexts = defineTexts({
  ERR_PUSH_ENDPOINT_INVALID: ["Serviço de notificações do navegador não reconhecido.", "The browser's push service is not recognised.", "Servicio de notificaciones del navegador no reconocido."],
});
