/**
 * Texts of the internal chat (`chats.*`, plus `menu.chats` and the chat error codes) in pt, en and es. Spec texts are
 * verbatim: 'Por favor, preencha o título da conversa.', 'Por favor, selecione pelo menos um usuário.'.
 */
import { defineTexts, type TextBundles } from "../../i18n/index.ts";

export const chatsTexts = defineTexts({
  title: ["Chat interno", "Internal chat", "Chat interno"],
  tabChats: ["Chats", "Chats", "Chats"],
  tabMessages: ["Mensagens", "Messages", "Mensajes"],
  add: ["Nova conversa", "New chat", "Nueva conversación"],
  addTitle: ["Nova conversa", "New chat", "Nueva conversación"],
  editTitle: ["Editar conversa", "Edit chat", "Editar conversación"],
  chatTitle: ["Título", "Title", "Título"],
  users: ["Usuários", "Users", "Usuarios"],
  noUsers: ["Nenhum outro usuário na empresa.", "No other user in the company.", "Ningún otro usuario en la empresa."],
  titleRequired: ["Por favor, preencha o título da conversa.", "Please fill in the chat title.", "Por favor, complete el título de la conversación."],
  usersRequired: ["Por favor, selecione pelo menos um usuário.", "Please select at least one user.", "Por favor, seleccione al menos un usuario."],
  saved: ["Conversa salva com sucesso!", "Chat saved successfully!", "¡Conversación guardada con éxito!"],
  deleted: ["Conversa excluída com sucesso!", "Chat deleted successfully!", "¡Conversación eliminada con éxito!"],
  none: ["Nenhuma conversa ainda.", "No chats yet.", "Aún no hay conversaciones."],
  pick: ["Selecione uma conversa para ver as mensagens.", "Pick a chat to see its messages.", "Seleccione una conversación para ver sus mensajes."],
  noMessages: ["Nenhuma mensagem ainda. Diga olá!", "No messages yet. Say hello!", "Aún no hay mensajes. ¡Salude!"],
  placeholder: ["Digite uma mensagem", "Type a message", "Escriba un mensaje"],
  send: ["Enviar", "Send", "Enviar"],
  edit: ["Editar", "Edit", "Editar"],
  delete: ["Excluir", "Delete", "Eliminar"],
  members: ["{{count}} participante(s)", "{{count}} member(s)", "{{count}} participante(s)"],
  unread: ["{{count}} não lida(s)", "{{count}} unread", "{{count}} no leída(s)"],
  popover: ["Conversas internas", "Internal chats", "Conversaciones internas"],
  popoverButton: ["Conversas internas: {{count}} não lida(s)", "Internal chats: {{count}} unread", "Conversaciones internas: {{count}} no leída(s)"],
  popoverNone: ["Nenhuma conversa.", "No chats.", "Ninguna conversación."],
  openAll: ["Abrir o chat interno", "Open the internal chat", "Abrir el chat interno"],
  loadingEarlier: ["Carregando mensagens anteriores…", "Loading earlier messages…", "Cargando mensajes anteriores…"],
  you: ["Você", "You", "Usted"],
  back: ["Voltar para as conversas", "Back to the chats", "Volver a las conversaciones"],
});
export const chatsMenuTexts = defineTexts({ chats: ["Chat interno", "Internal chat", "Chat interno"] });

/** The chat error codes (`shared/src/chats/errors.ts`). */
export const chatsErrorTexts: TextBundles<Record<string, string>> = {
  pt: { ERR_NO_CHAT_FOUND: "Conversa não encontrada." },
  en: { ERR_NO_CHAT_FOUND: "Chat not found." },
  es: { ERR_NO_CHAT_FOUND: "Conversación no encontrada." },
};
