/**
 * Texts of the prompts page and dialog (`prompts.*`, `menu.prompts`, the prompts' error codes) in pt, en and es.
 * The spec's text is verbatim: 'Informe o setor'.
 */
import { defineTexts, type TextBundles } from "../../i18n/index.ts";

export const promptsTexts = defineTexts({
  title: ["Prompts", "Prompts", "Prompts"],
  add: ["Adicionar prompt", "Add prompt", "Agregar prompt"],
  addTitle: ["Adicionar prompt", "Add prompt", "Agregar prompt"],
  editTitle: ["Editar prompt", "Edit prompt", "Editar prompt"],
  name: ["Nome", "Name", "Nombre"],
  queue: ["Setor", "Sector", "Sector"],
  chooseQueue: ["Selecione o setor", "Choose the sector", "Seleccione el sector"],
  maxTokens: ["Máximo de tokens", "Max tokens", "Máximo de tokens"],
  maxMessages: ["Máximo de mensagens", "Max messages", "Máximo de mensajes"],
  temperature: ["Temperatura", "Temperature", "Temperatura"],
  apiKey: ["Chave da API", "API key", "Clave de la API"],
  apiKeyKept: ["Chave salva: {{mask}}. Deixe em branco para mantê-la.", "Saved key: {{mask}}. Leave blank to keep it.", "Clave guardada: {{mask}}. Déjela en blanco para mantenerla."],
  prompt: ["Prompt", "Prompt", "Prompt"],
  promptHint: ["Instruções do assistente: quem ele é, o que pode responder e quando chamar uma pessoa.", "The assistant's instructions: who it is, what it may answer and when to call a person.", "Instrucciones del asistente: quién es, qué puede responder y cuándo llamar a una persona."],
  voice: ["Voz", "Voice", "Voz"],
  voiceText: ["Texto", "Text", "Texto"],
  voiceKey: ["Chave da voz", "Voice key", "Clave de la voz"],
  voiceRegion: ["Região da voz", "Voice region", "Región de la voz"],
  model: ["Modelo", "Model", "Modelo"],
  baseUrl: ["URL da API (opcional)", "API URL (optional)", "URL de la API (opcional)"],
  baseUrlHint: ["Para provedores compatíveis com a OpenAI; em branco usa o padrão.", "For OpenAI-compatible providers; blank uses the default.", "Para proveedores compatibles con OpenAI; en blanco usa el predeterminado."],
  saved: ["Prompt salvo com sucesso!", "Prompt saved successfully!", "¡Prompt guardado con éxito!"],
  deleted: ["Prompt excluído com sucesso!", "Prompt deleted successfully!", "¡Prompt eliminado con éxito!"],
  confirmDelete: ["Excluir {{name}}?", "Delete {{name}}?", "¿Eliminar {{name}}?"],
  confirmDeleteText: ["O assistente deixa de responder nos setores e conexões que usam este prompt.", "The assistant stops answering in the sectors and connections using this prompt.", "El asistente deja de responder en los sectores y conexiones que usan este prompt."],
  bannerTitle: ["Crédito do provedor de IA", "AI provider credit", "Crédito del proveedor de IA"],
  banner: [
    "O crédito gratuito do provedor (cerca de 5 USD, uns três meses) pode acabar: então a IA para de responder até a conta ser recarregada, e os atendimentos passam para a equipe.",
    "The provider's free credit (about 5 USD, roughly three months) can run out: the AI then stops answering until the account is topped up, and conversations go to the team.",
    "El crédito gratuito del proveedor (unos 5 USD, unos tres meses) puede agotarse: la IA deja de responder hasta recargar la cuenta y las atenciones pasan al equipo.",
  ],
  usage: ["Uso", "Usage", "Uso"],
  billing: ["Faturamento", "Billing", "Facturación"],
  apiKeys: ["Chaves de API", "API keys", "Claves de API"],
  required: ["Obrigatório", "Required", "Obligatorio"],
  queueRequired: ["Informe o setor", "Choose the sector", "Indique el sector"],
  invalidNumber: ["Número inválido", "Invalid number", "Número inválido"],
});
export const promptsMenuTexts = defineTexts({ prompts: ["Prompts", "Prompts", "Prompts"] });

export const promptsErrorTexts: TextBundles<Record<string, string>> = {
  pt: { ERR_NO_PROMPT_FOUND: "Prompt não encontrado." },
  en: { ERR_NO_PROMPT_FOUND: "Prompt not found." },
  es: { ERR_NO_PROMPT_FOUND: "Prompt no encontrado." },
};
