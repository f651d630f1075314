/**
 * Prompts operations: the company's admins only (`routes:admin`), behind the plan flag `useOpenAi` (403
 * `ERR_PLAN_FEATURE_DISABLED` for a company whose plan has it off). Another company's prompt is 404
 * `ERR_NO_PROMPT_FOUND`. The provider's keys are never answered in clear (masked: `••••••••` + the last four).
 */
import { defineRoutes } from "../contract.ts";
import { CreatePromptBody, Prompt, PromptDeleted, PromptIdParams, PromptList, UpdatePromptBody } from "./schema.ts";

export const promptsRoutes = defineRoutes("prompts", {
  "GET /api/prompt": { auth: "admin", plan: "useOpenAi", response: PromptList },
  "GET /api/prompt/{id}": { auth: "admin", plan: "useOpenAi", params: PromptIdParams, response: Prompt },
  "POST /api/prompt": { auth: "admin", plan: "useOpenAi", body: CreatePromptBody, response: Prompt },
  "PUT /api/prompt/{id}": { auth: "admin", plan: "useOpenAi", params: PromptIdParams, body: UpdatePromptBody, response: Prompt },
  "DELETE /api/prompt/{id}": { auth: "admin", plan: "useOpenAi", params: PromptIdParams, response: PromptDeleted },
});
