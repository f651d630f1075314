/**
 * Prompts area (AI assistants per queue or connection). Thin: call the prompts service. Contract:
 * `shared/src/prompts/contract.ts` (admins, plan flag `useOpenAi`).
 */
import { createPrompt, deletePrompt, listPromptsFor, showPrompt, updatePrompt } from "@atende/shared/prompts/service";
import { answering, areaHandler } from "./core/http.ts";

export const handler = areaHandler("prompts", {
  "GET /api/prompt": async (ctx) => listPromptsFor(ctx.auth),
  "GET /api/prompt/{id}": async (ctx) => showPrompt(ctx.auth, ctx.params.id),
  "POST /api/prompt": async (ctx) => createPrompt(ctx.auth, ctx.body),
  "PUT /api/prompt/{id}": async (ctx) => updatePrompt(ctx.auth, ctx.params.id, ctx.body),
  "DELETE /api/prompt/{id}": answering("Prompt deleted", (ctx) => deletePrompt(ctx.auth, ctx.params.id)),
});
