/** Texts of the to-do list (`todo.*`, plus `menu.todolist`) in pt, en and es. */
import { defineTexts } from "../../i18n/index.ts";

export const todoTexts = defineTexts({
  title: ["Tarefas", "To-do list", "Tareas"],
  count: ["{{count}} tarefa(s)", "{{count}} task(s)", "{{count}} tarea(s)"],
  newTask: ["Nova tarefa", "New task", "Nueva tarea"],
  newTaskPlaceholder: ["Escreva uma tarefa…", "Type a task…", "Escriba una tarea…"],
  add: ["Adicionar", "Add", "Agregar"],
  editTask: ["Editar tarefa: {{text}}", "Edit task: {{text}}", "Editar tarea: {{text}}"],
  deleteTask: ["Excluir tarefa: {{text}}", "Delete task: {{text}}", "Eliminar tarea: {{text}}"],
  removed: ["Tarefa excluída: {{text}}", "Task deleted: {{text}}", "Tarea eliminada: {{text}}"],
  undo: ["Desfazer", "Undo", "Deshacer"],
  empty: ["Nenhuma tarefa. Escreva a primeira acima.", "No tasks. Write the first one above.", "No hay tareas. Escriba la primera arriba."],
  localOnly: [
    "Enter adiciona a tarefa. As tarefas ficam salvas apenas neste navegador.",
    "Enter adds the task. Tasks are kept in this browser only.",
    "Enter agrega la tarea. Las tareas se guardan solo en este navegador.",
  ],
});
export const todoMenuTexts = defineTexts({ todolist: ["Tarefas", "To-do list", "Tareas"] });
