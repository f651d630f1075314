/**
 * Prompts data (docs/product/prompts.md): `usePrompts()` GET /api/prompt → the company's prompts by name;
 * `promptCalls` (POST /api/prompt, PUT /api/prompt/{id}, DELETE /api/prompt/{id}) run by `usePromptMutations()`.
 * `promptsCache` keeps the list current for mutations and `company-{id}-prompt` frames. Keys arrive masked.
 */
import { useQuery } from "@tanstack/react-query";
import { call, type BodyOf, type ResponseOf } from "../../api/operations.ts";
import { arrayCache, useCrudMutations, type CrudCalls } from "../../ui/kit/crud.ts";

export type Prompt = ResponseOf<"GET /api/prompt/{id}">;
export type PromptForm = BodyOf<"PUT /api/prompt/{id}">;

const byName = (a: Prompt, b: Prompt) => a.name.localeCompare(b.name, "pt", { sensitivity: "base" }) || a.id - b.id;
export const promptsCache = arrayCache<Prompt>({ key: ["prompts"], sort: byName });

export const usePrompts = () => useQuery({ queryKey: promptsCache.key, queryFn: async () => (await call("GET /api/prompt")).prompts });

export const promptCalls: CrudCalls<Prompt, PromptForm> = {
  create: (form) => call("POST /api/prompt", { body: form as BodyOf<"POST /api/prompt"> }),
  update: (id, form) => call("PUT /api/prompt/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/prompt/{id}", { params: { id } }),
};

export const usePromptMutations = () => useCrudMutations(promptCalls, promptsCache);
