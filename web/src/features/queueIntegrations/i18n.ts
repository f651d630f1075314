/**
 * Texts of the queue integrations page and dialog (`queueIntegrations.*`, plus `menu.queue-integration`) in pt, en
 * and es; the integrations' error codes.
 */
import { defineTexts, type TextBundles } from "../../i18n/index.ts";

export const queueIntegrationsTexts = defineTexts({
  title: ["Integrações", "Integrations", "Integraciones"],
  count: ["{{count}} integração(ões)", "{{count}} integration(s)", "{{count}} integración(es)"],
  searchPlaceholder: ["Pesquisar...", "Search...", "Buscar..."],
  add: ["Adicionar projeto", "Add project", "Agregar proyecto"],
  addTitle: ["Adicionar projeto", "Add project", "Agregar proyecto"],
  editTitle: ["Editar projeto", "Edit project", "Editar proyecto"],
  saved: ["Integração salva com sucesso.", "Integration saved successfully.", "Integración guardada con éxito."],
  deleted: ["Integração excluída com sucesso.", "Integration deleted successfully.", "Integración eliminada con éxito."],
  id: ["ID", "ID", "ID"],
  type: ["Tipo", "Type", "Tipo"],
  name: ["Nome", "Name", "Nombre"],
  projectName: ["Nome do projeto", "Project name", "Nombre del proyecto"],
  jsonContent: ["JSON da conta de serviço", "Service account JSON", "JSON de la cuenta de servicio"],
  language: ["Idioma", "Language", "Idioma"],
  urlN8N: ["URL", "URL", "URL"],
  typebotUrl: ["URL do servidor Typebot", "Typebot server URL", "URL del servidor Typebot"],
  typebotSlug: ["Typebot - Slug", "Typebot - Slug", "Typebot - Slug"],
  typebotExpires: ["Tempo para expirar uma conversa (minutos)", "Minutes of silence before a conversation expires", "Minutos de silencio para expirar una conversación"],
  typebotDelayMessage: ["Intervalo entre mensagens (ms)", "Delay between messages (ms)", "Intervalo entre mensajes (ms)"],
  typebotKeywordFinish: ["Palavra para finalizar o ticket", "Keyword that closes the ticket", "Palabra para cerrar el ticket"],
  typebotKeywordRestart: ["Palavra para reiniciar o fluxo", "Keyword that restarts the flow", "Palabra para reiniciar el flujo"],
  typebotUnknownMessage: ["Mensagem de opção inválida", "Message for an invalid option", "Mensaje de opción inválida"],
  typebotRestartMessage: ["Mensagem ao reiniciar a conversa", "Message when the conversation restarts", "Mensaje al reiniciar la conversación"],
  webhookSecret: ["Segredo da assinatura (X-Atende-Signature)", "Signing secret (X-Atende-Signature)", "Secreto de la firma (X-Atende-Signature)"],
  secretHint: [
    "Copie-o agora para verificar a assinatura de cada envio: depois de salvo, ele só aparece mascarado.",
    "Copy it now to verify each delivery's signature: once saved, it is only shown masked.",
    "Cópielo ahora para verificar la firma de cada envío: una vez guardado, solo se muestra enmascarado.",
  ],
  secretTooShort: ["Use ao menos 16 caracteres.", "Use at least 16 characters.", "Use al menos 16 caracteres."],
  credentialKept: ["Salvo: {{mask}}. Deixe em branco para mantê-lo.", "Saved: {{mask}}. Leave blank to keep it.", "Guardado: {{mask}}. Déjelo en blanco para mantenerlo."],
  test: ["Testar sessão", "Test session", "Probar sesión"],
  testOk: ["Sessão testada com sucesso: {{reply}}", "Session tested successfully: {{reply}}", "Sesión probada con éxito: {{reply}}"],
  empty: ["Nenhuma integração cadastrada.", "No integrations yet.", "No hay integraciones."],
  none: ["Nenhuma", "None", "Ninguna"],
  select: ["Integração", "Integration", "Integración"],
  types: {
    typebot: ["Typebot", "Typebot", "Typebot"],
    n8n: ["n8n", "n8n", "n8n"],
    webhook: ["Webhook", "Webhook", "Webhook"],
    dialogflow: ["Dialogflow", "Dialogflow", "Dialogflow"],
  },
  languages: {
    "pt-BR": ["Português", "Portuguese", "Portugués"],
    en: ["Inglês", "English", "Inglés"],
    es: ["Espanhol", "Spanish", "Español"],
  },
});
export const queueIntegrationsMenuTexts = defineTexts({ "queue-integration": ["Integrações", "Integrations", "Integraciones"] });

/** The integrations' error codes (`shared/src/integrations/errors.ts`). */
export const queueIntegrationsErrorTexts: TextBundles<Record<string, string>> = {
  pt: { ERR_NO_INTEGRATION_FOUND: "Integração não encontrada.", ERR_INTEGRATION_TEST_FAILED: "Não foi possível iniciar a sessão com estas credenciais." },
  en: { ERR_NO_INTEGRATION_FOUND: "Integration not found.", ERR_INTEGRATION_TEST_FAILED: "Could not start a session with these credentials." },
  es: { ERR_NO_INTEGRATION_FOUND: "Integración no encontrada.", ERR_INTEGRATION_TEST_FAILED: "No se pudo iniciar una sesión con estas credenciales." },
};
