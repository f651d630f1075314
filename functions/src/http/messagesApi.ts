/**
 * Public messages API area (docs/product/messages-api.md). Thin: the connection token was checked by the pipeline
 * (`auth` level `apiToken`, `ctx.apiCaller`); the rules are in `shared/src/messagesApi/service.ts`.
 */
import { AppError } from "@atende/shared/errors";
import { ApiSendForm } from "@atende/shared/messagesApi/schema";
import { apiMessageStatus, sendThroughApi, type ApiCaller } from "@atende/shared/messagesApi/service";
import { areaHandler } from "./core/http.ts";
import { header } from "./core/types.ts";

const callerOf = (c: ApiCaller | undefined): ApiCaller => {
  if (!c) throw new AppError("ERR_SESSION_EXPIRED");
  return c;
};

export const handler = areaHandler("messagesApi", {
  "POST /api/messages/send": async (ctx) => {
    const idempotencyKey = header(ctx.event, "idempotency-key");
    if (ctx.upload) {
      const parsed = ApiSendForm.safeParse(ctx.upload.fields ?? {});
      if (!parsed.success) throw new AppError("ERR_VALIDATION", { fields: [{ path: "number", message: "Required" }] });
      const captions = ctx.upload.captions;
      return sendThroughApi(callerOf(ctx.apiCaller), { number: parsed.data.number, body: captions[0] ?? "", files: ctx.upload.files, captions, idempotencyKey });
    }
    return sendThroughApi(callerOf(ctx.apiCaller), { number: ctx.body.number, body: ctx.body.body, files: [], captions: [], idempotencyKey });
  },
  "GET /api/messages/send/{id}": async (ctx) => apiMessageStatus(callerOf(ctx.apiCaller), ctx.params.id),
});
