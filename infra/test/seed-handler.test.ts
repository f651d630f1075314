/**
 * The deploy-time seed (custom resource): reads the first admin's password from the secret, seeds through the
 * shared seed, answers CloudFormation on its presigned URL, and never overwrites an existing admin.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login } from "@atende/shared/auth/service";
import { INVOICE_TIMER_BACKFILL_KIND } from "@atende/shared/invoices/timer-backfill";
import { SEARCH_BACKFILL_KIND } from "@atende/shared/search/backfill-job";
import { getTimer } from "@atende/shared/timers/index";
import { companyWorld } from "../../test/world.ts";
import { INVOICE_TIMER_BACKFILL_PHYSICAL_ID, makeSeedHandler, SEARCH_BACKFILL_PHYSICAL_ID, SEED_PHYSICAL_ID } from "../lib/seed-handler.ts";

const w = companyWorld();

let server: Server;
let url: string;
const responses: Array<Record<string, any>> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      responses.push({ method: req.method, ...JSON.parse(body) });
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cfn-response`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const fakeSecrets = (secret: string) => ({ send: async () => ({ SecretString: secret }) }) as never;
const event = (type: "Create" | "Update" | "Delete") => ({
  RequestType: type,
  ResponseURL: url,
  StackId: "arn:aws:cloudformation:us-east-1:123456789012:stack/Atende/x",
  RequestId: `r-${type}-${responses.length}`,
  LogicalResourceId: "FirstAdmin",
  ...(type === "Create" ? {} : { PhysicalResourceId: SEED_PHYSICAL_ID }),
  ResourceProperties: { ServiceToken: "arn", SecretArn: "arn:aws:secretsmanager:us-east-1:123456789012:secret:first" },
});

describe("deploy-time seed", () => {
  it("creates the super admin with the secret's password and reports SUCCESS to CloudFormation", async () => {
    await makeSeedHandler({ secrets: fakeSecrets(JSON.stringify({ email: "admin@admin.com", password: "s3cret-Pass-123" })) })(event("Create"));
    const last = responses.at(-1)!;
    expect(last).toMatchObject({ method: "PUT", Status: "SUCCESS", PhysicalResourceId: SEED_PHYSICAL_ID, LogicalResourceId: "FirstAdmin" });
    const session = await login({ email: "admin@admin.com", password: "s3cret-Pass-123" }, "127.0.0.1");
    expect(session.user.super).toBe(true);
    await expect(login({ email: "admin@admin.com", password: "123456" }, "127.0.0.1")).rejects.toMatchObject({ status: 401 });
  });

  it("leaves an existing admin's password alone on a later deploy", async () => {
    await makeSeedHandler({ secrets: fakeSecrets(JSON.stringify({ email: "admin@admin.com", password: "another-Pass-456" })) })(event("Update"));
    expect(responses.at(-1)).toMatchObject({ Status: "SUCCESS", Reason: "already seeded" });
    const session = await login({ email: "admin@admin.com", password: "s3cret-Pass-123" }, "127.0.0.1");
    expect(session.user.email).toBe("admin@admin.com");
  });

  it("reports FAILED with the reason when the secret is not {email, password}", async () => {
    await makeSeedHandler({ secrets: fakeSecrets("not json") })(event("Update"));
    expect(responses.at(-1)).toMatchObject({ Status: "FAILED" });
    expect(responses.at(-1)!.Reason.length).toBeGreaterThan(0);
  });

  it("schedules the search backfill of each company not yet indexed for Custom::AtendeSearchBackfill", async () => {
    const session = await login({ email: "admin@admin.com", password: "s3cret-Pass-123" }, "127.0.0.1");
    // A company stored before the index existed (no backfill progress), beside the seeded one, born indexed.
    const { cid: older } = await w.fresh();
    const backfill = { ...event("Create"), LogicalResourceId: "SearchBackfill", ResourceProperties: { ServiceToken: "arn", Task: "searchBackfill", IndexVersion: "1" } };
    await makeSeedHandler({ secrets: fakeSecrets("unused") })(backfill);
    expect(responses.at(-1)).toMatchObject({ Status: "SUCCESS", PhysicalResourceId: SEARCH_BACKFILL_PHYSICAL_ID, LogicalResourceId: "SearchBackfill" });
    expect(await getTimer(older, SEARCH_BACKFILL_KIND, "index")).toMatchObject({ companyId: older });
    expect(await getTimer(session.user.companyId, SEARCH_BACKFILL_KIND, "index")).toBeNull();
  });

  it("schedules the invoice-timer walk once for Custom::AtendeInvoiceTimerBackfill", async () => {
    const backfill = { ...event("Create"), LogicalResourceId: "InvoiceTimerBackfill", ResourceProperties: { ServiceToken: "arn", Task: "invoiceTimerBackfill", Version: "1" } };
    await makeSeedHandler({ secrets: fakeSecrets("unused") })(backfill);
    expect(responses.at(-1)).toMatchObject({ Status: "SUCCESS", PhysicalResourceId: INVOICE_TIMER_BACKFILL_PHYSICAL_ID, Reason: "invoice timer backfill scheduled" });
    expect(await getTimer(0, INVOICE_TIMER_BACKFILL_KIND, "companies")).toMatchObject({ companyId: 0 });
    await makeSeedHandler({ secrets: fakeSecrets("unused") })({ ...backfill, RequestType: "Update", PhysicalResourceId: INVOICE_TIMER_BACKFILL_PHYSICAL_ID });
    expect(responses.at(-1)).toMatchObject({ Status: "SUCCESS", Reason: "invoice timer backfill done or running" });
  });

  it("does nothing but answer SUCCESS on Delete", async () => {
    await makeSeedHandler({ secrets: fakeSecrets("unused") })(event("Delete"));
    expect(responses.at(-1)).toMatchObject({ Status: "SUCCESS", PhysicalResourceId: SEED_PHYSICAL_ID });
  });
});
