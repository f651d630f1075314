/**
 * The public messages API (docs/product/messages-api.md). Both operations authenticate with a connection's token
 * (`Authorization: Bearer <token>`, auth level `apiToken`), need the plan flag `useExternalApi` and count against the
 * token's rate limit (429 `ERR_API_RATE_LIMITED` with `Retry-After`).
 *
 * - `POST /api/messages/send`: JSON `{number, body}`, or `multipart/form-data` with `number`, files in `medias` and a
 *   caption per file in `body` (one `body` for all, or one per file in order). Optional `Idempotency-Key` header.
 * - `GET /api/messages/send/{id}`: the delivery status of a message this connection sent through the API.
 */
import { defineRoutes } from "../contract.ts";
import { ApiMessage, ApiSendAnswer, ApiSendBody, ApiStatusParams } from "./schema.ts";

export const messagesApiRoutes = defineRoutes("messagesApi", {
  "POST /api/messages/send": { auth: "apiToken", plan: "useExternalApi", body: ApiSendBody, multipart: true, response: ApiSendAnswer },
  "GET /api/messages/send/{id}": { auth: "apiToken", plan: "useExternalApi", params: ApiStatusParams, response: ApiMessage },
});
