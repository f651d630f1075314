/**
 * Prompts' domain events: `prompt.created|updated` carry the prompt as the API answers it (keys masked),
 * `prompt.deleted` its id; frame `company-{id}-prompt` `{action: "create"|"update", prompt}` / `{action: "delete",
 * promptId}` to the company's admins (the only ones who see the page). `assistant.requested`: a customer's message
 * the assistant answers (docs/product/prompts.md#the-assistant), carried by the durable assistant listener.
 */
import { z } from "zod";
import { baseEvent, defineEvents, defineFrames, realtimeFrames } from "../events/index.ts";
import { Prompt, PromptFrame } from "./schema.ts";

declare module "../events/registry.ts" {
  interface EventMap {
    "prompt.created": { type: "prompt.created"; companyId: number; prompt: Prompt };
    "prompt.updated": { type: "prompt.updated"; companyId: number; prompt: Prompt };
    "prompt.deleted": { type: "prompt.deleted"; companyId: number; promptId: number };
    "assistant.requested": { type: "assistant.requested"; companyId: number; ticketId: number; messageId: string; promptId: number };
  }
}

defineEvents({
  "prompt.created": baseEvent("prompt.created").extend({ prompt: Prompt }),
  "prompt.updated": baseEvent("prompt.updated").extend({ prompt: Prompt }),
  "prompt.deleted": baseEvent("prompt.deleted").extend({ promptId: z.number().int() }),
  "assistant.requested": baseEvent("assistant.requested").extend({ ticketId: z.number().int(), messageId: z.string(), promptId: z.number().int() }),
});

defineFrames({ prompt: PromptFrame });

realtimeFrames("prompt.created", (e) => [{ name: "prompt", data: { action: "create", prompt: e.prompt }, audience: { kind: "admins" } }]);
realtimeFrames("prompt.updated", (e) => [{ name: "prompt", data: { action: "update", prompt: e.prompt }, audience: { kind: "admins" } }]);
realtimeFrames("prompt.deleted", (e) => [{ name: "prompt", data: { action: "delete", promptId: e.promptId }, audience: { kind: "admins" } }]);
