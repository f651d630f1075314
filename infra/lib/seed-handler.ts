/**
 * CloudFormation custom-resource Lambda that seeds the cloud's first data on deploy (docs/deploy.md#the-first-admin: in
 * the cloud the first admin's password comes from a secret): plan "Plano 1", company "Empresa 1" and the super
 * admin `admin@admin.com` whose password is read from the Secrets Manager secret `SecretArn`
 * (`{"email": ..., "password": ...}`), through the same `seedLocal` the one-machine stack runs.
 *
 * Idempotent: Create and Update call the seed, which changes nothing once the admin exists (a password
 * changed in the app is never overwritten); Delete does nothing (the table may be retained).
 *
 * The same function serves the `Custom::AtendeSearchBackfill` resource (`Task: "searchBackfill"`): on
 * Create (the first deploy with the search index) and on Update (its `IndexVersion` changed) it schedules the search
 * backfill of every company not yet indexed (`startSearchBackfill`, `shared/src/search/backfill-job.ts`); the minute
 * tick then does the work in bounded, resumable steps. It also schedules the report entries' backfill
 * (`startReportBackfill`, `shared/src/reports/backfill.ts`), the same way. Answering CloudFormation never waits for
 * the backfill itself.
 * The `Custom::AtendeInvoiceTimerBackfill` resource (`Task: "invoiceTimerBackfill"`) likewise schedules, once, the walk
 * that gives every company with a due date and no invoice timer its timer (`startInvoiceTimerBackfill`,
 * `shared/src/invoices/timer-backfill.ts`), carried by the minute tick.
 * The outcome is PUT to CloudFormation's presigned `ResponseURL` (no Provider framework needed).
 */
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { z } from "zod";
import { log } from "@atende/shared/log";
import { startInvoiceTimerBackfill } from "@atende/shared/invoices/timer-backfill";
import { startSearchBackfill } from "@atende/shared/search/backfill-job";
import { startReportBackfill } from "@atende/shared/reports/backfill";
import { seedLocal } from "@atende/shared/seed/seed";

const EventSchema = z.object({
  RequestType: z.enum(["Create", "Update", "Delete"]),
  ResponseURL: z.string().url(),
  StackId: z.string(),
  RequestId: z.string(),
  LogicalResourceId: z.string(),
  PhysicalResourceId: z.string().optional(),
  ResourceProperties: z.union([
    z.object({ Task: z.literal("searchBackfill"), IndexVersion: z.string().min(1) }).passthrough(),
    z.object({ Task: z.literal("invoiceTimerBackfill"), Version: z.string().min(1) }).passthrough(),
    z.object({ SecretArn: z.string().min(1) }).passthrough(),
  ]),
});
export type SeedEvent = z.infer<typeof EventSchema>;

const SecretSchema = z.object({ email: z.string().email(), password: z.string().min(6) });

/** Physical id of the seed resource: stable, so updates never replace (and never "delete") it. */
export const SEED_PHYSICAL_ID = "atende-first-admin-seed";
/** Physical id of the search-backfill resource (stable, like the seed's). */
export const SEARCH_BACKFILL_PHYSICAL_ID = "atende-search-backfill";
/** Physical id of the invoice-timer backfill resource (stable, like the seed's). */
export const INVOICE_TIMER_BACKFILL_PHYSICAL_ID = "atende-invoice-timer-backfill";

const physicalIdOf = (props: SeedEvent["ResourceProperties"]): string =>
  !("Task" in props) ? SEED_PHYSICAL_ID : props.Task === "searchBackfill" ? SEARCH_BACKFILL_PHYSICAL_ID : INVOICE_TIMER_BACKFILL_PHYSICAL_ID;

/** What the handler talks to; injectable for tests. */
export interface SeedDeps {
  secrets: Pick<SecretsManagerClient, "send">;
}

/** Reads the first admin's password from Secrets Manager. Throws when the secret is not `{email, password}`. */
export async function readAdminPassword(secretArn: string, secrets: SeedDeps["secrets"]): Promise<string> {
  const out = await secrets.send(new GetSecretValueCommand({ SecretId: secretArn }));
  return SecretSchema.parse(JSON.parse(out.SecretString ?? "{}")).password;
}

/** Sends the custom resource's outcome to CloudFormation (an empty content-type, as the presigned URL requires). */
async function respond(event: SeedEvent, status: "SUCCESS" | "FAILED", reason: string, data: Record<string, unknown> = {}): Promise<void> {
  const body = JSON.stringify({
    Status: status,
    Reason: reason.slice(0, 1000),
    PhysicalResourceId: event.PhysicalResourceId ?? physicalIdOf(event.ResourceProperties),
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
    Data: data,
  });
  const res = await fetch(event.ResponseURL, { method: "PUT", body, headers: { "content-type": "" } });
  if (!res.ok) throw new Error(`CloudFormation response PUT failed with ${res.status}`);
}

/**
 * Builds the custom resource handler (see module doc). After the event parses, failures are reported to
 * CloudFormation as FAILED (with the error message) instead of leaving the stack waiting an hour.
 */
export function makeSeedHandler(deps: SeedDeps): (raw: unknown) => Promise<void> {
  return async (raw) => {
    const event = EventSchema.parse(raw);
    try {
      if (event.RequestType === "Delete") return await respond(event, "SUCCESS", "nothing to undo");
      const props = event.ResourceProperties;
      if ("Task" in props && props.Task === "invoiceTimerBackfill") {
        const scheduled = await startInvoiceTimerBackfill();
        log("info", "invoice timer backfill", { scheduled });
        return await respond(event, "SUCCESS", scheduled ? "invoice timer backfill scheduled" : "invoice timer backfill done or running");
      }
      if ("Task" in props) {
        const companies = await startSearchBackfill();
        log("info", "search backfill scheduled", { companies: companies.length, indexVersion: props.IndexVersion });
        const reporting = await startReportBackfill(); // the report entries of older cycles (docs/product/reports.md#keys)
        log("info", "report backfill scheduled", { companies: reporting.length });
        return await respond(event, "SUCCESS", `search backfill scheduled for ${companies.length} companies`, { Companies: String(companies.length) });
      }
      const password = await readAdminPassword(props.SecretArn, deps.secrets);
      const out = await seedLocal({ adminPassword: password });
      log("info", "seed", { companyId: out.companyId, created: out.created });
      await respond(event, "SUCCESS", out.created ? "seeded" : "already seeded", { CompanyId: String(out.companyId) });
    } catch (err) {
      log("error", "seed failed", { error: (err as Error).message });
      await respond(event, "FAILED", (err as Error).message);
    }
  };
}

let secrets: SecretsManagerClient | undefined;
/** The Lambda entry point (Secrets Manager client created on first use). */
export const handler = (raw: unknown) => {
  secrets ??= new SecretsManagerClient({});
  return makeSeedHandler({ secrets })(raw);
};
