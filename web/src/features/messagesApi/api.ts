/**
 * The Messages API page's call: the test form sends through `POST /api/messages/send` with the token the person
 * typed (not their session), as another system would.
 */
import { useMutation } from "@tanstack/react-query";
import { call, type ResponseOf } from "../../api/operations.ts";

export type ApiSendAnswer = ResponseOf<"POST /api/messages/send">;

/** What the test form sends. */
export interface TestSend {
  token: string;
  number: string;
  body: string;
  file: File | null;
}

/** Sends one test message with the typed token; JSON without a file, multipart (`number`, `body`, `medias`) with one. */
export function useTestSend() {
  return useMutation({
    mutationFn: async (input: TestSend): Promise<ApiSendAnswer> => {
      const headers = { Authorization: `Bearer ${input.token.trim()}` };
      if (!input.file) return call("POST /api/messages/send", { body: { number: input.number.trim(), body: input.body }, headers, noSessionRule: true });
      const form = new FormData();
      form.append("number", input.number.trim());
      form.append("body", input.body);
      form.append("medias", input.file, input.file.name);
      return call("POST /api/messages/send", { body: { number: input.number.trim(), body: input.body }, form, headers, noSessionRule: true });
    },
  });
}
