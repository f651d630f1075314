/**
 * The AI stand-in for a test file (`./ai-standin.ts`): started before the file's tests with the speech SDK pointed at
 * it (`SPEECH_HOST`, honoured on one machine), stopped after, the configuration restored.
 */
import { afterAll, beforeAll } from "vitest";
import { resetConfig } from "@atende/shared/config";
import { startAiStandin, type AiStandin } from "./ai-standin.ts";

/** Registers the hooks; the returned object's `ai` is set once the file's `beforeAll` hooks ran. */
export function useAiStandin(): { ai: AiStandin } {
  const world = {} as { ai: AiStandin };
  beforeAll(async () => {
    world.ai = await startAiStandin();
    process.env.SPEECH_HOST = world.ai.speechHost;
    resetConfig();
  });
  afterAll(async () => {
    delete process.env.SPEECH_HOST;
    resetConfig();
    await world.ai?.stop();
  });
  return world;
}
