/**
 * Queue integrations operations (plan flag `useIntegrations`; admins only, as the administration menu). Another
 * company's integration is 404 `ERR_NO_INTEGRATION_FOUND`. `POST /api/queueIntegration/testSession` checks a
 * Dialogflow project's credentials with one detect-intent call ("Olá") and answers its replies, or 400
 * `ERR_INTEGRATION_TEST_FAILED`. docs/product/integrations.md.
 */
import { defineRoutes } from "../contract.ts";
import {
  CreateIntegrationBody,
  IntegrationDeleted,
  IntegrationIdParams,
  IntegrationsPage,
  PageIntegrationsQuery,
  QueueIntegration,
  TestSessionBody,
  TestSessionResult,
  UpdateIntegrationBody,
} from "./schema.ts";

export const integrationsRoutes = defineRoutes("queueIntegrations", {
  "GET /api/queueIntegration": { auth: "admin", plan: "useIntegrations", query: PageIntegrationsQuery, response: IntegrationsPage },
  "POST /api/queueIntegration/testSession": { auth: "admin", plan: "useIntegrations", body: TestSessionBody, response: TestSessionResult },
  "GET /api/queueIntegration/{id}": { auth: "admin", plan: "useIntegrations", params: IntegrationIdParams, response: QueueIntegration },
  "POST /api/queueIntegration": { auth: "admin", plan: "useIntegrations", body: CreateIntegrationBody, response: QueueIntegration },
  "PUT /api/queueIntegration/{id}": { auth: "admin", plan: "useIntegrations", params: IntegrationIdParams, body: UpdateIntegrationBody, response: QueueIntegration },
  "DELETE /api/queueIntegration/{id}": { auth: "admin", plan: "useIntegrations", params: IntegrationIdParams, response: IntegrationDeleted },
});
