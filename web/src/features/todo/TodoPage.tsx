/**
 * /todolist (docs/product/helps.md#to-do-list): the user's own tasks, kept only in this browser. A text box adds a
 * task (Enter or the add button; blank text is ignored); each task is edited in place (Enter or save keeps it,
 * Escape or cancel leaves it as it was; blank text is ignored) and deleted at once with an undo bar
 * ('Desfazer') that stays until the next deletion or {@link UNDO_MS}.
 */
import { Button, Flex, Heading, Text, TextField } from "@aws-amplify/ui-react";
import { ListTodo } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSession } from "../../api/session.ts";
import { formatDate } from "../../ui/format.ts";
import { DeleteIcon, EditIcon, IconAction } from "../../ui/kit/index.ts";
import { type Task, todoKey, useTasks } from "./store.ts";

/** How long the undo bar of a deleted task stays, in ms. */
export const UNDO_MS = 8000;

export function TodoPage() {
  const { t } = useTranslation();
  const titleId = useId();
  const me = useSession()!.user;
  const store = useTasks(todoKey(me.companyId, me.id));
  const [text, setText] = useState("");
  const [editingId, setEditingId] = useState<string | null>(null);
  const [removed, setRemoved] = useState<{ task: Task; index: number } | null>(null);
  const newRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!removed) return;
    const id = setTimeout(() => setRemoved(null), UNDO_MS);
    return () => clearTimeout(id);
  }, [removed]);

  const add = () => {
    if (store.add(text)) setText("");
    newRef.current?.focus();
  };
  const remove = (task: Task) => {
    const gone = store.remove(task.id);
    if (gone) setRemoved(gone);
    if (editingId === task.id) setEditingId(null);
    newRef.current?.focus();
  };
  const undo = () => {
    if (removed) store.restore(removed);
    setRemoved(null);
  };

  return (
    <section className="page todo-page" aria-labelledby={titleId}>
      <Flex className="page-header" alignItems="baseline" gap="0.5rem" wrap="wrap">
        <Heading level={2} id={titleId}>
          {t("todo.title")}
        </Heading>
        <Text variation="secondary" fontSize="small" data-testid="todo-count">
          {t("todo.count", { count: store.tasks.length })}
        </Text>
      </Flex>
      <div className="todo-body">
        <form
          className="todo-new"
          onSubmit={(e) => {
            e.preventDefault();
            add();
          }}
        >
          <TextField
            label={t("todo.newTask")}
            labelHidden
            placeholder={t("todo.newTaskPlaceholder")}
            value={text}
            onChange={(e) => setText(e.target.value)}
            ref={newRef}
            autoFocus
            autoComplete="off"
            maxLength={500}
            data-testid="todo-new"
            flex="1"
          />
          <Button type="submit" variation="primary" data-testid="todo-add">
            {t("todo.add")}
          </Button>
        </form>
        <Text variation="secondary" fontSize="small" className="todo-hint">
          {t("todo.localOnly")}
        </Text>
        {removed && (
          <div className="todo-undo" role="status" data-testid="todo-undo">
            <span className="cell-clip">{t("todo.removed", { text: removed.task.text })}</span>
            <Button size="small" variation="link" onClick={undo} data-testid="todo-undo-button">
              {t("todo.undo")}
            </Button>
          </div>
        )}
        {store.tasks.length === 0 ? (
          <Flex direction="column" alignItems="center" gap="0.5rem" padding="3rem 1rem" data-testid="todo-empty">
            <ListTodo aria-hidden size={40} className="todo-empty-icon" />
            <Text variation="secondary">{t("todo.empty")}</Text>
          </Flex>
        ) : (
          <ul className="todo-list" aria-label={t("todo.title")}>
            {store.tasks.map((task) =>
              editingId === task.id ? (
                <TaskEditor
                  key={task.id}
                  task={task}
                  onSave={(v) => {
                    if (store.edit(task.id, v)) setEditingId(null);
                  }}
                  onCancel={() => setEditingId(null)}
                />
              ) : (
                <li key={task.id} className="todo-item" data-testid="todo-item">
                  <span className="todo-text">
                    <span data-testid="todo-text">{task.text}</span>
                    <Text as="span" variation="tertiary" fontSize="xs">
                      {formatDate(task.updatedAt ?? task.createdAt)}
                    </Text>
                  </span>
                  <span className="row-actions">
                    <IconAction label={t("todo.editTask", { text: task.text })} title={t("common.edit")} onClick={() => setEditingId(task.id)} testId="todo-edit">
                      <EditIcon />
                    </IconAction>
                    <IconAction label={t("todo.deleteTask", { text: task.text })} title={t("common.delete")} onClick={() => remove(task)} danger testId="todo-delete">
                      <DeleteIcon />
                    </IconAction>
                  </span>
                </li>
              ),
            )}
          </ul>
        )}
      </div>
    </section>
  );
}

/** One task in edit mode: its text in a box (focused, selected); Enter saves, Escape cancels; blank text is ignored. */
function TaskEditor({ task, onSave, onCancel }: { task: Task; onSave: (text: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(task.text);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  return (
    <li className="todo-item editing" data-testid="todo-item">
      <form
        className="todo-edit"
        onSubmit={(e) => {
          e.preventDefault();
          onSave(value);
        }}
      >
        <TextField
          label={t("todo.editTask", { text: task.text })}
          labelHidden
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.preventDefault();
              onCancel();
            }
          }}
          ref={ref}
          maxLength={500}
          autoComplete="off"
          data-testid="todo-edit-input"
          className="todo-edit-field"
        />
        <Button type="submit" size="small" variation="primary" data-testid="todo-save">
          {t("common.save")}
        </Button>
        <Button type="button" size="small" onClick={onCancel}>
          {t("common.cancel")}
        </Button>
      </form>
    </li>
  );
}
