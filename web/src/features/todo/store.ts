/**
 * The to-do list's storage (docs/product/helps.md#to-do-list): tasks live only in this browser's localStorage, one
 * list per user (`todolist:<companyId>:<userId>`, so two people sharing a browser never see each other's). Every
 * change is written at once; other tabs of the same browser follow through the `storage` event. A stored value that
 * is not a task list reads as empty (and is replaced on the next change).
 */
import { useCallback, useSyncExternalStore } from "react";

export interface Task {
  id: string;
  text: string;
  /** ISO time of the task's creation. */
  createdAt: string;
  /** ISO time of its last edit (absent when never edited). */
  updatedAt?: string;
}

/** The localStorage key of a user's list. */
export const todoKey = (companyId: number, userId: number) => `todolist:${companyId}:${userId}`;

const isTask = (v: unknown): v is Task => {
  const o = v as Task;
  return !!o && typeof o === "object" && typeof o.id === "string" && typeof o.text === "string" && typeof o.createdAt === "string";
};

/** Parses a stored list; anything that is not a list of tasks is an empty list. */
export function parseTasks(raw: string | null): Task[] {
  if (!raw) return [];
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? v.filter(isTask) : [];
  } catch {
    return [];
  }
}

const listeners = new Set<() => void>();
const cache = new Map<string, { raw: string | null; tasks: Task[] }>();

function read(key: string): Task[] {
  const raw = localStorage.getItem(key);
  const hit = cache.get(key);
  if (hit && hit.raw === raw) return hit.tasks;
  const tasks = parseTasks(raw);
  cache.set(key, { raw, tasks });
  return tasks;
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  window.addEventListener("storage", fn);
  return () => {
    listeners.delete(fn);
    window.removeEventListener("storage", fn);
  };
}

/** The text a task is saved with: trimmed; `undefined` for blank text (which is ignored). */
export const taskText = (text: string): string | undefined => text.trim() || undefined;

/**
 * A user's tasks (oldest first) and the changes: `add(text)` and `edit(id, text)` ignore blank text (answering false),
 * `remove(id)` answers the removed task and its position, `restore` puts such a task back (undo).
 */
export function useTasks(key: string) {
  const tasks = useSyncExternalStore(subscribe, () => read(key));
  const write = useCallback(
    (next: Task[]) => {
      localStorage.setItem(key, JSON.stringify(next));
      for (const fn of listeners) fn();
    },
    [key],
  );
  return {
    tasks,
    add(text: string): boolean {
      const t = taskText(text);
      if (!t) return false;
      write([...read(key), { id: crypto.randomUUID(), text: t, createdAt: new Date().toISOString() }]);
      return true;
    },
    edit(id: string, text: string): boolean {
      const t = taskText(text);
      if (!t) return false;
      write(read(key).map((x) => (x.id === id ? { ...x, text: t, updatedAt: new Date().toISOString() } : x)));
      return true;
    },
    remove(id: string): { task: Task; index: number } | undefined {
      const all = read(key);
      const index = all.findIndex((x) => x.id === id);
      if (index < 0) return undefined;
      write(all.filter((x) => x.id !== id));
      return { task: all[index], index };
    },
    restore({ task, index }: { task: Task; index: number }): void {
      const all = read(key).filter((x) => x.id !== task.id);
      write([...all.slice(0, index), task, ...all.slice(index)]);
    },
  };
}
