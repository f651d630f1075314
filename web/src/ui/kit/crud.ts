/**
 * The kit's data half: one cache shape per kind of list, the realtime handler that merges a feature's
 * `company-{id}-{entity}` frames into it, and one `useCrudMutations` for every add/edit/delete dialog.
 *
 * - `pagedCache({root, field})`: infinite pages `{[field]: T[], count, hasMore}` under `[...root, "pages", search]`
 *   (plus, optionally, a whole-company array under `listKey`); new records go first where they match the search.
 * - `arrayCache({key, sort})`: one array (GET answers that are not paged: queues, connections).
 * - `crudRealtime(entity, cache)`: `{action:"create"|"update", [entity]}` → upsert, `{action:"delete", [entity]Id}` →
 *   remove, `{action:"reload"}` → refetch (lists merge live create, update, delete and reload events).
 * Updates older than the cached `updatedAt` of the same record are dropped, so late frames never undo newer data.
 */
import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData, type QueryClient, type QueryKey } from "@tanstack/react-query";
import type { FrameMap, FrameName } from "@atende/shared/events/frame-map";
import type { RealtimeHandler } from "../../realtime/handlers.ts";

export interface Identified {
  id: number;
  updatedAt?: string;
}

/** What mutations and realtime frames do to a feature's cached lists. */
export interface EntityCache<T extends Identified> {
  upsert(qc: QueryClient, item: T): void;
  remove(qc: QueryClient, id: number): void;
  /** Refetches every loaded list of the entity (a `reload` frame, or a save whose answer is not the record). */
  reload(qc: QueryClient): void;
}

/** True when `incoming` is older than `cached` (both ISO times). */
export const isStale = (cached: { updatedAt?: string } | undefined, incoming: { updatedAt?: string }): boolean =>
  !!cached?.updatedAt && !!incoming.updatedAt && incoming.updatedAt < cached.updatedAt;

const merge = <T extends Identified>(xs: T[], item: T): T[] => xs.map((x) => (x.id === item.id ? { ...x, ...item } : x));

export interface PagedCache<T extends Identified> extends EntityCache<T> {
  keys: { all: readonly unknown[]; pagesAll: readonly unknown[]; pages: (search: string) => readonly unknown[]; list: readonly unknown[] };
}

/** A page of a paged list: the records under `field`, plus `count` and `hasMore` (and a cursor for some). */
export type Page<F extends string, T> = { [K in F]: T[] } & { count: number; hasMore: boolean; nextCursor?: string };

/**
 * The cache of a paged, searchable list. `matches(item, search)` decides whether a record created elsewhere joins a
 * loaded search (default: every record joins the unsearched list only).
 */
export function pagedCache<T extends Identified, F extends string>(opts: {
  root: string;
  field: F;
  matches?: (item: T, search: string) => boolean;
  /** Also keep this whole-company array current (e.g. `GET /users/list`). */
  withList?: boolean;
}): PagedCache<T> {
  const keys = {
    all: [opts.root] as const,
    pagesAll: [opts.root, "pages"] as const,
    pages: (search: string) => [opts.root, "pages", search] as const,
    list: [opts.root, "list"] as const,
  };
  const matches = opts.matches ?? ((_: T, s: string) => !s);
  type P = Page<F, T>;
  const itemsOf = (p: P): T[] => (p as Record<F, T[]>)[opts.field] ?? [];
  const withItems = (p: P, items: T[]): P => ({ ...p, [opts.field]: items });
  const each = (qc: QueryClient, fn: (key: QueryKey, data: InfiniteData<P>) => InfiniteData<P> | undefined) => {
    for (const [key, data] of qc.getQueriesData<InfiniteData<P>>({ queryKey: keys.pagesAll })) {
      if (!data?.pages) continue;
      const next = fn(key, data);
      if (next) qc.setQueryData(key, next);
    }
  };
  return {
    keys,
    upsert(qc, item) {
      each(qc, (key, data) => {
        const cur = data.pages.flatMap(itemsOf).find((x) => x.id === item.id);
        if (isStale(cur, item)) return undefined;
        if (cur) return { ...data, pages: data.pages.map((p) => withItems(p, merge(itemsOf(p), item))) };
        if (!matches(item, String(key[2] ?? ""))) return undefined;
        return { ...data, pages: data.pages.map((p, i) => (i === 0 ? { ...withItems(p, [item, ...itemsOf(p)]), count: (p.count ?? 0) + 1 } : p)) };
      });
      if (opts.withList) qc.setQueryData<T[]>(keys.list, (xs) => (xs ? (xs.some((x) => x.id === item.id) ? merge(xs, item) : [...xs, item]) : xs));
    },
    remove(qc, id) {
      each(qc, (_key, data) =>
        data.pages.some((p) => itemsOf(p).some((x) => x.id === id))
          ? { ...data, pages: data.pages.map((p) => ({ ...withItems(p, itemsOf(p).filter((x) => x.id !== id)), count: Math.max(0, (p.count ?? 1) - 1) })) }
          : undefined,
      );
      if (opts.withList) qc.setQueryData<T[]>(keys.list, (xs) => xs?.filter((x) => x.id !== id));
    },
    reload(qc) {
      void qc.invalidateQueries({ queryKey: keys.all });
    },
  };
}

/** The cache of a list answered whole (one array under `key`), kept in `sort` order when given. */
export function arrayCache<T extends Identified>(opts: { key: readonly unknown[]; sort?: (a: T, b: T) => number }): EntityCache<T> & { key: readonly unknown[] } {
  const sorted = (xs: T[]) => (opts.sort ? [...xs].sort(opts.sort) : xs);
  return {
    key: opts.key,
    upsert(qc, item) {
      qc.setQueryData<T[]>(opts.key, (xs) => {
        if (!xs) return xs;
        const cur = xs.find((x) => x.id === item.id);
        if (isStale(cur, item)) return xs;
        return sorted(cur ? merge(xs, item) : [...xs, item]);
      });
    },
    remove(qc, id) {
      qc.setQueryData<T[]>(opts.key, (xs) => xs?.filter((x) => x.id !== id));
    },
    reload(qc) {
      void qc.invalidateQueries({ queryKey: opts.key });
    },
  };
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === "object" ? (v as Record<string, unknown>) : {});

/** The record a CRUD frame carries under its own name (`{action: "create"|"update", [name]: record}`). */
type RecordOf<N extends FrameName> = (FrameMap[N] extends infer F ? (F extends { [K in N]: infer R } ? R : never) : never) & Identified;

/**
 * The realtime handler of `company-{id}-{entity}` for a CRUD list: create/update → upsert, delete → remove (id from
 * `{entity}Id` or `{entity}.id`), reload → refetch. `after` runs after an upsert (e.g. the session's own user). The
 * handler's data is the frame's type; it is read here by the entity's name, the same way for every entity.
 */
export function crudRealtime<N extends FrameName>(entity: N, cache: EntityCache<RecordOf<N>>, after?: RealtimeHandler<N>): RealtimeHandler<N> {
  return (data, ctx) => {
    const d = obj(data);
    if (d.action === "reload") return cache.reload(ctx.queryClient);
    if (d.action === "delete") {
      const id = Number(d[`${entity}Id`] ?? obj(d[entity]).id);
      if (Number.isFinite(id)) cache.remove(ctx.queryClient, id);
      return;
    }
    const item = d[entity] as RecordOf<N> | undefined;
    if (!item || typeof item.id !== "number") return;
    cache.upsert(ctx.queryClient, item);
    after?.(data, ctx);
  };
}

/** The calls of a CRUD resource (they stay in the feature's `api.ts`). */
export interface CrudCalls<T, F> {
  create(form: F): Promise<T>;
  update(id: number, form: F): Promise<T>;
  remove(id: number): Promise<unknown>;
}

const isRecord = (v: unknown): v is Identified => !!v && typeof v === "object" && typeof (v as Identified).id === "number";

/**
 * The save (`{id?, form}` → create or update) and remove (`id`) mutations of a CRUD resource; a success updates the
 * feature's cache the same way its realtime frames do. `reloadAfterSave` refetches after the upsert (a save that changes
 * other records too, e.g. the default connection).
 */
export function useCrudMutations<T extends Identified, F>(calls: CrudCalls<T, F>, cache: EntityCache<T>, opts: { reloadAfterSave?: boolean } = {}) {
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: ({ id, form }: { id?: number; form: F }) => (id ? calls.update(id, form) : calls.create(form)),
    onSuccess: (item) => {
      if (isRecord(item)) cache.upsert(qc, item as T);
      if (!isRecord(item) || opts.reloadAfterSave) cache.reload(qc);
    },
  });
  const remove = useMutation({ mutationFn: (id: number) => calls.remove(id), onSuccess: (_r, id) => cache.remove(qc, id) });
  return { save, remove };
}

/**
 * The pages of a list searched with `searchParam` and paged with `pageNumber` (1, 2, ...) by `get` (the feature's
 * contract call), under the cache's key for `search` (a new term is a new key, so it starts again at page 1).
 */
export function useNumberedPages<P extends { hasMore: boolean }>(cache: PagedCache<Identified>, search: string, get: (query: { searchParam: string; pageNumber: number }) => Promise<P>) {
  return useInfiniteQuery({
    queryKey: cache.keys.pages(search),
    queryFn: ({ pageParam }) => get({ searchParam: search, pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last: P, all: P[]) => (last?.hasMore ? all.length + 1 : undefined),
  });
}
