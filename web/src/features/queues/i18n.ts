/** Texts of the queues page and queue dialog (`queues.*`) in pt, en and es. */
import type { TextBundles } from "../../i18n/index.ts";

const pt = {
  title: "Filas & Chatbot",
  add: "Adicionar fila",
  addTitle: "Adicionar fila",
  editTitle: "Editar fila",
  id: "ID",
  name: "Nome",
  color: "Cor",
  greetingMessage: "Mensagem de saudação",
  orderQueue: "Ordem da fila (bot)",
  saved: "Fila salva com sucesso!",
  deleted: "Fila excluída com sucesso!",
};
const en: typeof pt = {
  title: "Queues & Chatbot",
  add: "Add queue",
  addTitle: "Add queue",
  editTitle: "Edit queue",
  id: "ID",
  name: "Name",
  color: "Color",
  greetingMessage: "Greeting message",
  orderQueue: "Queue order (bot)",
  saved: "Queue saved successfully",
  deleted: "Queue deleted successfully!",
};
const es: typeof pt = {
  title: "Colas & Chatbot",
  add: "Agregar cola",
  addTitle: "Agregar cola",
  editTitle: "Editar cola",
  id: "ID",
  name: "Nombre",
  color: "Color",
  greetingMessage: "Mensaje de saludo",
  orderQueue: "Orden de la cola (bot)",
  saved: "¡Cola guardada con éxito!",
  deleted: "¡Cola eliminada con éxito!",
};

export const queuesTexts: TextBundles<typeof pt> = { pt, en, es };
