/**
 * Texts of the Kanban board (`kanban.*`, plus `menu.kanban`) in pt, en and es. The product's fixed text is verbatim:
 * 'Em aberto' (the lane of tickets with no kanban tag). A card's age reads the ticket list's labels (`tickets.age.*`).
 */
import { defineTexts } from "../../i18n/index.ts";

export const kanbanTexts = defineTexts({
  title: ["Kanban", "Kanban", "Kanban"],
  openLane: ["Em aberto", "Open", "Abiertos"],
  empty: ["Nenhum atendimento", "No tickets", "Ninguna atención"],
  noLanes: [
    "Crie tags marcadas como Kanban para ter mais colunas.",
    "Create tags flagged as Kanban to get more columns.",
    "Cree etiquetas marcadas como Kanban para tener más columnas.",
  ],
  cards: ["{{count}} atendimento(s)", "{{count}} ticket(s)", "{{count}} atención(es)"],
  cardsMore: ["{{count}}+ atendimentos", "{{count}}+ tickets", "{{count}}+ atenciones"],
  moved: ["Atendimento movido para {{lane}}", "Ticket moved to {{lane}}", "Atención movida a {{lane}}"],
  cardLabel: ["{{name}}, coluna {{lane}}", "{{name}}, column {{lane}}", "{{name}}, columna {{lane}}"],
  dragHint: [
    "Para mover com o teclado: Espaço para pegar, setas esquerda e direita para trocar de coluna, Espaço para soltar, Esc para cancelar.",
    "To move with the keyboard: Space to pick up, left and right arrows to change column, Space to drop, Escape to cancel.",
    "Para mover con el teclado: Espacio para tomar, flechas izquierda y derecha para cambiar de columna, Espacio para soltar, Esc para cancelar.",
  ],
  pickedUp: ["{{name}} pego na coluna {{lane}}.", "Picked up {{name}} in column {{lane}}.", "{{name}} tomado en la columna {{lane}}."],
  over: ["{{name}} sobre a coluna {{lane}}.", "{{name}} over column {{lane}}.", "{{name}} sobre la columna {{lane}}."],
  dropped: ["{{name}} solto na coluna {{lane}}.", "{{name}} dropped in column {{lane}}.", "{{name}} soltado en la columna {{lane}}."],
  cancelled: ["Movimento cancelado.", "Move cancelled.", "Movimiento cancelado."],
});
export const kanbanMenuTexts = defineTexts({ kanban: ["Kanban", "Kanban", "Kanban"] });
