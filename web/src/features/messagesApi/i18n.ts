/**
 * Texts of the Messages API page (`messagesApi.*`, `menu.messages-api`, and the feature's error codes) in pt, en and
 * es.
 */
import { defineTexts, type TextBundles } from "../../i18n/index.ts";

export const messagesApiTexts = defineTexts({
  title: ["API de mensagens", "Messages API", "API de mensajes"],
  intro: [
    "Outros sistemas enviam mensagens por uma conexão com o token dela (na janela da conexão). O número vai sem máscara: código do país, DDD e número.",
    "Other systems send messages through a connection with its token (in the connection's dialog). The number has no mask: country code, area code and number.",
    "Otros sistemas envían mensajes por una conexión con su token (en la ventana de la conexión). El número va sin máscara: código de país, código de área y número.",
  ],
  docsTitle: ["Como usar", "How to use", "Cómo usar"],
  sendText: ["Enviar texto", "Send text", "Enviar texto"],
  sendFiles: ["Enviar arquivos (um body por arquivo, como legenda)", "Send files (one body per file, as its caption)", "Enviar archivos (un body por archivo, como leyenda)"],
  status: ["Consultar o status de uma mensagem", "Read a message's status", "Consultar el estado de un mensaje"],
  idempotency: [
    "Com o cabeçalho Idempotency-Key, repetir o mesmo pedido devolve a primeira resposta sem enviar de novo. Acima do limite de pedidos, a resposta é 429 com Retry-After (segundos).",
    "With the Idempotency-Key header, repeating the same request returns the first answer without sending again. Past the request limit, the answer is 429 with Retry-After (seconds).",
    "Con la cabecera Idempotency-Key, repetir el mismo pedido devuelve la primera respuesta sin enviar de nuevo. Por encima del límite de pedidos, la respuesta es 429 con Retry-After (segundos).",
  ],
  copy: ["Copiar", "Copy", "Copiar"],
  copied: ["Copiado!", "Copied!", "¡Copiado!"],
  copyFailed: ["Não foi possível copiar", "Could not copy", "No se pudo copiar"],
  testTitle: ["Testar o envio", "Test a send", "Probar el envío"],
  token: ["Token", "Token", "Token"],
  number: ["Número", "Number", "Número"],
  numberHint: ["Ex.: 5511988887777", "E.g. 5511988887777", "Ej.: 5511988887777"],
  body: ["Mensagem", "Message", "Mensaje"],
  file: ["Arquivo (opcional)", "File (optional)", "Archivo (opcional)"],
  removeFile: ["Remover arquivo", "Remove file", "Quitar archivo"],
  send: ["Enviar", "Send", "Enviar"],
  sending: ["Enviando…", "Sending…", "Enviando…"],
  answer: ["Resposta", "Answer", "Respuesta"],
  noAnswer: ["A resposta do envio aparece aqui.", "The send's answer shows here.", "La respuesta del envío aparece aquí."],
  required: ["Obrigatório", "Required", "Obligatorio"],
});

export const messagesApiMenuTexts = defineTexts({ "messages-api": ["API", "API", "API"] });

/** The messages API's error codes (`shared/src/messagesApi/errors.ts`). */
export const messagesApiErrorTexts: TextBundles<Record<string, string>> = {
  pt: {
    ERR_API_RATE_LIMITED: "Muitos pedidos com este token. Tente de novo em instantes.",
    ERR_IDEMPOTENCY_KEY_REUSED: "Esta Idempotency-Key já foi usada em outro pedido.",
    ERR_IDEMPOTENCY_IN_PROGRESS: "O primeiro pedido com esta Idempotency-Key ainda está sendo enviado.",
  },
  en: {
    ERR_API_RATE_LIMITED: "Too many requests with this token. Try again shortly.",
    ERR_IDEMPOTENCY_KEY_REUSED: "This Idempotency-Key was used for another request.",
    ERR_IDEMPOTENCY_IN_PROGRESS: "The first request with this Idempotency-Key is still being sent.",
  },
  es: {
    ERR_API_RATE_LIMITED: "Demasiados pedidos con este token. Inténtelo de nuevo en un momento.",
    ERR_IDEMPOTENCY_KEY_REUSED: "Esta Idempotency-Key ya se usó en otro pedido.",
    ERR_IDEMPOTENCY_IN_PROGRESS: "El primer pedido con esta Idempotency-Key todavía se está enviando.",
  },
};
