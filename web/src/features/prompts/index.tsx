/**
 * Prompts area (docs/product/prompts.md; admins of companies whose plan has `useOpenAi`): /prompts, its
 * administration menu entry, texts, and the `company-{id}-prompt` frames (`{action, prompt}` / `{action: "delete",
 * promptId}`).
 */
import { crudRealtime } from "../../ui/kit/crud.ts";
import { lazyPage } from "../lazy.tsx";
import { ADMIN_ONLY, type Feature } from "../types.ts";
import { promptsCache } from "./api.ts";
import { promptsErrorTexts, promptsMenuTexts, promptsTexts } from "./i18n.ts";
import "./prompts.css";

const PromptsPage = lazyPage(() => import("./PromptsPage.tsx"), "PromptsPage");

export const promptsFeature: Feature = {
  id: "prompts",
  access: { ...ADMIN_ONLY, planFlag: "useOpenAi" },
  routes: [{ path: "/prompts", element: <PromptsPage /> }],
  menu: { path: "/prompts", labelKey: "menu.prompts", group: "administration", order: 70 },
  texts: { prompts: promptsTexts, menu: promptsMenuTexts, errors: promptsErrorTexts },
  realtime: { prompt: crudRealtime("prompt", promptsCache) },
};
