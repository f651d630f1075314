/**
 * CDK assertions for the Atende cloud: the resources docs/deploy.md#what-it-creates lists, and cdk-nag
 * AwsSolutions with no unacknowledged error. Bundling is skipped here through CDK's own
 * `aws:cdk:bundling-stacks` context (what `cdk deploy --exclusively` does for other stacks); the real
 * esbuild bundling is proven in `bundling.test.ts`. The entries still must exist: a missing area module fails.
 */
import { App, type CfnElement, Stack } from "aws-cdk-lib";
import { CfnBucket } from "aws-cdk-lib/aws-s3";
import { Match, Template } from "aws-cdk-lib/assertions";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { areas, routes, routesOf } from "@atende/functions/http/routes";
import { tableDefinition } from "@atende/shared/db/table";
import { DISPATCH_CONSUMER_ENTRY, routeStackOf } from "../lib/api.ts";
import { buildApp } from "../lib/app.ts";
import { type AtendeStack, SEARCH_INDEX_VERSION } from "../lib/atende-stack.ts";
import { REPO_ROOT } from "../lib/function.ts";
import { nagViolations } from "../lib/nag.ts";
import { assertNoSandbox, CONTENT_SECURITY_POLICY, SPA_REWRITE_CODE, VIEWER_IP_CODE } from "../lib/web.ts";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";

const cdkJson = JSON.parse(readFileSync(path.join(REPO_ROOT, "cdk.json"), "utf8")) as { context: Record<string, unknown> };

const hasDispatchConsumer = existsSync(path.join(REPO_ROOT, DISPATCH_CONSUMER_ENTRY));
let app: App;
let stack: AtendeStack;
let template: Template;

beforeAll(() => {
  app = new App({ context: { ...cdkJson.context, "aws:cdk:bundling-stacks": [] } });
  stack = buildApp(app);
  template = Template.fromStack(stack);
}, 300_000);

type Res = { Type: string; Properties: Record<string, any> };
const resources = (type: string): Res[] => Object.values(template.findResources(type)) as Res[];

/**
 * The HTTP routes, read from the nested stacks that hold them: each route's key, and its API and its integration's
 * function as the main stack names them (the nested stack receives both as parameters).
 */
function httpRoutes(): { key: string; apiId: unknown; fn: unknown; stack: number }[] {
  const main = template.toJSON().Resources as Record<string, Res>;
  return stack.api.routeStacks.flatMap((nested, i) => {
    const inner = Template.fromStack(nested).toJSON().Resources as Record<string, Res>;
    const params = main[stack.getLogicalId(nested.nestedStackResource as CfnElement)].Properties.Parameters as Record<string, unknown>;
    const outer = (v: any) => (v?.Ref && v.Ref in params ? params[v.Ref] : v);
    return Object.values(inner)
      .filter((r) => r.Type === "AWS::ApiGatewayV2::Route")
      .map((r) => {
        const integration = inner[(r.Properties.Target["Fn::Join"][1][1] as { Ref: string }).Ref];
        return { key: r.Properties.RouteKey as string, apiId: outer(r.Properties.ApiId), fn: outer(integration.Properties.IntegrationUri), stack: i };
      });
  });
}

describe("the DynamoDB table", () => {
  it("has PK/SK strings, the four GSIs with projection ALL, on-demand billing, PITR and TTL expiresAt", () => {
    const [table] = resources("AWS::DynamoDB::GlobalTable");
    expect(resources("AWS::DynamoDB::GlobalTable")).toHaveLength(1);
    const p = table.Properties;
    expect(p.KeySchema).toEqual([
      { AttributeName: "PK", KeyType: "HASH" },
      { AttributeName: "SK", KeyType: "RANGE" },
    ]);
    expect(p.BillingMode).toBe("PAY_PER_REQUEST");
    expect(p.TimeToLiveSpecification).toEqual({ AttributeName: "expiresAt", Enabled: true });
    expect(p.Replicas[0].PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    const gsis = p.GlobalSecondaryIndexes as Array<{ IndexName: string; KeySchema: unknown; Projection: unknown }>;
    expect(gsis.map((g) => g.IndexName).sort()).toEqual(["GSI1", "GSI2", "GSI3", "GSI4"]);
    for (const g of tableDefinition.globalSecondaryIndexes) {
      const gsi = gsis.find((x) => x.IndexName === g.indexName)!;
      expect(gsi.KeySchema).toEqual([
        { AttributeName: g.partitionKey, KeyType: "HASH" },
        { AttributeName: g.sortKey, KeyType: "RANGE" },
      ]);
      expect(gsi.Projection).toEqual({ ProjectionType: "ALL" });
    }
    const attrs = p.AttributeDefinitions as Array<{ AttributeName: string; AttributeType: string }>;
    expect(attrs).toHaveLength(10);
    expect(attrs.every((a) => a.AttributeType === "S")).toBe(true);
  });
});

describe("the Lambdas", () => {
  const ours = () =>
    resources("AWS::Lambda::Function").filter((f) => f.Properties.Environment?.Variables?.TABLE_NAME !== undefined);

  it("has one function per manifest area, each on nodejs24.x arm64 with the shared environment", () => {
    const descriptions = ours().map((f) => f.Properties.Description as string);
    for (const area of areas()) {
      expect(descriptions.filter((d) => d.startsWith(`Atende HTTP area "${area}"`))).toHaveLength(1);
    }
    // areas + three WebSocket routes + the minute tick + the deploy-time seed + the session-command DLQ consumer +
    // the jobs consumer + the webhooks consumer (+ the dispatch consumer once written)
    expect(ours()).toHaveLength(areas().length + 8 + (hasDispatchConsumer ? 1 : 0));
    for (const f of ours()) {
      expect(f.Properties.Runtime).toBe("nodejs24.x");
      expect(f.Properties.Architectures).toEqual(["arm64"]);
      expect(f.Properties.Handler).toBe("index.handler");
      expect(Object.keys(f.Properties.Environment.Variables)).toEqual(
        expect.arrayContaining([
          "TABLE_NAME",
          "MEDIA_BUCKET",
          "JWT_SECRET_ARN",
          "WS_MANAGEMENT_ENDPOINT",
          "SESSION_COMMANDS_QUEUE_URL_PREFIX",
          "DISPATCH_QUEUE_URL",
          "JOBS_QUEUE_URL",
          "WEBHOOKS_QUEUE_URL",
          "STAGE",
        ]),
      );
      // The V8 options every Node process of the product runs with (a larger young generation for list pages).
      expect(f.Properties.Environment.Variables.NODE_OPTIONS).toBe("--max-semi-space-size=32");
    }
  });

  it("consumes the dispatch queue with partial batch failures once functions/src/jobs/dispatch.ts exists", () => {
    const mappings = resources("AWS::Lambda::EventSourceMapping").filter((m) => !JSON.stringify(m.Properties.EventSourceArn).match(/SessionCommands\d+Dlq|DataJobs|DataWebhooks/));
    expect(mappings).toHaveLength(hasDispatchConsumer ? 1 : 0);
    for (const m of mappings) {
      expect(m.Properties.FunctionResponseTypes).toEqual(["ReportBatchItemFailures"]);
      expect(m.Properties.EventSourceArn["Fn::GetAtt"][0]).toMatch(/^DataDispatch[0-9A-F]{8}$/);
    }
  });

  it("consumes the jobs queue one job at a time with partial batch failures", () => {
    const mappings = resources("AWS::Lambda::EventSourceMapping").filter((m) => JSON.stringify(m.Properties.EventSourceArn).match(/DataJobs/));
    expect(mappings).toHaveLength(1);
    expect(mappings[0].Properties).toMatchObject({ BatchSize: 1, FunctionResponseTypes: ["ReportBatchItemFailures"] });
  });

  it("consumes the company webhooks queue with partial batch failures", () => {
    const mappings = resources("AWS::Lambda::EventSourceMapping").filter((m) => JSON.stringify(m.Properties.EventSourceArn).match(/DataWebhooks/));
    expect(mappings).toHaveLength(1);
    expect(mappings[0].Properties).toMatchObject({ BatchSize: 5, FunctionResponseTypes: ["ReportBatchItemFailures"] });
  });

  it("runs the minute tick from an EventBridge rule every minute", () => {
    template.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: "rate(1 minute)",
      Targets: [Match.objectLike({ Arn: { "Fn::GetAtt": [Match.stringLikeRegexp("^ApiTick"), "Arn"] } })],
    });
  });
});

describe("the HTTP API", () => {
  it("has exactly one route per manifest entry, with the manifest's method and path", () => {
    const httpApis = template.findResources("AWS::ApiGatewayV2::Api", { Properties: { ProtocolType: "HTTP" } });
    const [httpApiId] = Object.keys(httpApis);
    const found = httpRoutes();
    expect(found.map((r) => r.key).sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    for (const r of found) expect(r.apiId).toEqual({ Ref: httpApiId });
  });

  it("routes each manifest entry to its area's function, each area's routes in one nested stack", () => {
    const tickets = httpRoutes().filter((r) => r.key.startsWith("GET /api/tickets"));
    expect(tickets.length).toBeGreaterThan(0);
    const targets = new Set(tickets.map((r) => JSON.stringify(r.fn)));
    expect([...targets]).toHaveLength(1);
    expect((tickets[0].fn as { "Fn::GetAtt": string[] })["Fn::GetAtt"][0]).toMatch(/^ApiAreaTickets/);
    for (const area of areas()) {
      const stacks = new Set(httpRoutes().filter((r) => routesOf(area).some((m) => `${m.method} ${m.path}` === r.key)).map((r) => r.stack));
      expect({ area, stacks: [...stacks] }).toEqual({ area, stacks: [routeStackOf(area)] });
    }
  });

  it("keeps the main stack and each nested stack under CloudFormation's 500 resources", () => {
    const count = (t: Template) => Object.keys(t.toJSON().Resources).length;
    expect(count(template)).toBeLessThan(500);
    for (const nested of stack.api.routeStacks) expect(count(Template.fromStack(nested))).toBeLessThan(500);
  });
});

describe("the WebSocket API", () => {
  it("has $connect, $disconnect and $default on an auto-deployed stage named ws", () => {
    const wsApis = template.findResources("AWS::ApiGatewayV2::Api", { Properties: { ProtocolType: "WEBSOCKET" } });
    const [wsApiId] = Object.keys(wsApis);
    const keys = resources("AWS::ApiGatewayV2::Route")
      .filter((r) => r.Properties.ApiId?.Ref === wsApiId)
      .map((r) => r.Properties.RouteKey)
      .sort();
    expect(keys).toEqual(["$connect", "$default", "$disconnect"]);
    template.hasResourceProperties("AWS::ApiGatewayV2::Stage", { ApiId: { Ref: wsApiId }, StageName: "ws", AutoDeploy: true });
  });

  it("lets every publisher (HTTP areas, ws functions, tick, runner task) manage connections", () => {
    const policies = resources("AWS::IAM::Policy");
    const withManage = policies.filter((p) =>
      (p.Properties.PolicyDocument.Statement as Array<{ Action: string | string[] }>).some((s) =>
        [s.Action].flat().includes("execute-api:ManageConnections"),
      ),
    );
    const roles = withManage.flatMap((p) => p.Properties.Roles.map((r: { Ref: string }) => r.Ref) as string[]);
    // areas + ws functions + tick + runner task + the session-command DLQ consumer + the jobs and webhooks consumers (+ dispatch)
    expect(roles).toHaveLength(areas().length + 3 + 1 + 1 + 1 + 1 + 1 + (hasDispatchConsumer ? 1 : 0));
    expect(roles.some((r) => r.startsWith("SessionsTaskTaskRole"))).toBe(true);
  });
});

describe("the SQS queues", () => {
  it("has 16 FIFO session-command queues without content-based dedup, each with a FIFO DLQ, and dispatch with a DLQ", () => {
    const queues = resources("AWS::SQS::Queue");
    const byName = new Map(queues.map((q) => [q.Properties.QueueName as string, q]));
    for (let n = 0; n < 16; n++) {
      const q = byName.get(`atende-prod-session-commands-${n}.fifo`);
      expect(q, `shard ${n}`).toBeDefined();
      expect(q!.Properties.FifoQueue).toBe(true);
      expect(q!.Properties.ContentBasedDeduplication).toBe(false);
      expect(q!.Properties.RedrivePolicy.maxReceiveCount).toBe(5);
      const dlq = byName.get(`atende-prod-session-commands-${n}-dlq.fifo`);
      expect(dlq!.Properties.FifoQueue).toBe(true);
    }
    expect(byName.get("atende-prod-dispatch")!.Properties.RedrivePolicy).toBeDefined();
    expect(byName.get("atende-prod-dispatch-dlq")).toBeDefined();
    expect(byName.get("atende-prod-jobs")!.Properties.RedrivePolicy).toBeDefined();
    expect(byName.get("atende-prod-jobs-dlq")).toBeDefined();
    expect(byName.get("atende-prod-webhooks")!.Properties.RedrivePolicy).toBeDefined();
    expect(byName.get("atende-prod-webhooks-dlq")).toBeDefined();
    expect(queues).toHaveLength(38);
    expect(queues.every((q) => q.Properties.SqsManagedSseEnabled === true)).toBe(true);
  });

  it("enforces TLS on every queue", () => {
    const policies = resources("AWS::SQS::QueuePolicy");
    const covered = policies.flatMap((p) =>
      (p.Properties.PolicyDocument.Statement as Array<{ Effect: string; Condition?: any }>).some(
        (s) => s.Effect === "Deny" && s.Condition?.Bool?.["aws:SecureTransport"] === "false",
      )
        ? p.Properties.Queues
        : [],
    );
    expect(covered).toHaveLength(38);
  });

  it("alarms when any dead-letter queue holds a message", () => {
    const alarms = resources("AWS::CloudWatch::Alarm").filter((a) => a.Properties.MetricName === "ApproximateNumberOfMessagesVisible");
    expect(alarms).toHaveLength(19);
    for (const a of alarms) {
      expect(a.Properties.Threshold).toBe(0);
      expect(a.Properties.ComparisonOperator).toBe("GreaterThanThreshold");
      const queueName = a.Properties.Dimensions[0].Value["Fn::GetAtt"][0] as string;
      expect(queueName).toMatch(/Dlq[0-9A-F]{8}$/);
    }
  });
});

describe("the S3 buckets", () => {
  it("encrypts every bucket, blocks public access and denies non-TLS requests", () => {
    const buckets = template.findResources("AWS::S3::Bucket");
    expect(Object.keys(buckets).length).toBeGreaterThanOrEqual(4); // media, web, two access-log buckets
    for (const b of Object.values(buckets) as Res[]) {
      expect(b.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe("AES256");
      expect(b.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
    }
    const tlsOnly = resources("AWS::S3::BucketPolicy").filter((p) =>
      (p.Properties.PolicyDocument.Statement as Array<{ Effect: string; Condition?: any }>).some(
        (s) => s.Effect === "Deny" && s.Condition?.Bool?.["aws:SecureTransport"] === "false",
      ),
    );
    expect(tlsOnly).toHaveLength(Object.keys(buckets).length);
  });
});

describe("the session runner", () => {
  it("runs as a Fargate service on ARM64 with the image built from session-runner/Dockerfile", () => {
    template.hasResourceProperties("AWS::ECS::Service", {
      LaunchType: "FARGATE",
      DesiredCount: 1,
      NetworkConfiguration: { AwsvpcConfiguration: Match.objectLike({ AssignPublicIp: "ENABLED" }) },
    });
    template.hasResourceProperties("AWS::ECS::TaskDefinition", {
      RequiresCompatibilities: ["FARGATE"],
      RuntimePlatform: { CpuArchitecture: "ARM64", OperatingSystemFamily: "LINUX" },
      Cpu: "256",
      Memory: "512",
    });
    const assembly = app.synth();
    const manifest = JSON.parse(readFileSync(path.join(assembly.directory, `${stack.stackName}.assets.json`), "utf8")) as {
      dockerImages: Record<string, { source: { directory: string; dockerFile?: string; platform?: string } }>;
    };
    const images = Object.values(manifest.dockerImages);
    expect(images).toHaveLength(1);
    expect(images[0].source.dockerFile).toBe("session-runner/Dockerfile");
    expect(images[0].source.platform).toBe("linux/arm64");
    // The staged build context (repository root filtered by session-runner/.dockerignore) has what the Dockerfile copies.
    const context = path.join(assembly.directory, images[0].source.directory);
    for (const f of ["session-runner/Dockerfile", "package-lock.json", "shared/package.json", "session-runner/src/main.ts", "infra/lib/runner-bundle.ts"]) {
      expect(existsSync(path.join(context, f)), f).toBe(true);
    }
    expect(existsSync(path.join(context, "node_modules"))).toBe(false);
    expect(existsSync(path.join(context, "web/src"))).toBe(false);
    // No NAT gateway: the runner's subnets are public, with no inbound rule.
    expect(resources("AWS::EC2::NatGateway")).toHaveLength(0);
  });

  it("caps the shards per task and has ECS replace a task whose lease loop stopped ticking", () => {
    const [task] = resources("AWS::ECS::TaskDefinition");
    const [container] = task.Properties.ContainerDefinitions;
    const env = Object.fromEntries((container.Environment as { Name: string; Value: string }[]).map((e) => [e.Name, e.Value]));
    expect(env.RUNNER_MAX_SHARDS).toBe("16"); // one task: every shard; more tasks share them
    expect(env.RUNNER_HEARTBEAT_FILE).toBe("/tmp/runner-heartbeat");
    expect(container.HealthCheck.Command.join(" ")).toContain("/tmp/runner-heartbeat");
    expect(container.HealthCheck.Retries).toBe(3);
  });

  it("alarms on parked inbound messages left unstored and on payloads kept raw", () => {
    const filters = resources("AWS::Logs::MetricFilter").map((f) => f.Properties.MetricTransformations[0].MetricName);
    expect(filters).toEqual(expect.arrayContaining(["InboundParkedBacklog", "InboundKeptRaw"]));
    const alarms = resources("AWS::CloudWatch::Alarm").filter((a) => ["InboundParkedBacklog", "InboundKeptRaw"].includes(a.Properties.MetricName));
    expect(alarms).toHaveLength(2);
    for (const a of alarms) expect(a.Properties.ComparisonOperator).toBe("GreaterThanThreshold");
  });

  it("consumes every session-command DLQ with the function that marks dead-lettered sends failed", () => {
    const mappings = resources("AWS::Lambda::EventSourceMapping").filter((m) =>
      JSON.stringify(m.Properties.EventSourceArn).match(/SessionCommands\d+Dlq/),
    );
    expect(mappings).toHaveLength(16);
    const fns = new Set(mappings.map((m) => JSON.stringify(m.Properties.FunctionName)));
    expect(fns.size).toBe(1);
    expect([...fns][0]).toContain("CommandDlq");
    for (const m of mappings) expect(m.Properties.FunctionResponseTypes).toEqual(["ReportBatchItemFailures"]);
  });
});

describe("CloudFront", () => {
  it("forwards /api/* and /ws to the APIs uncached with every viewer header but Host, and serves the SPA from the bucket", () => {
    const [dist] = resources("AWS::CloudFront::Distribution");
    const cfg = dist.Properties.DistributionConfig;
    const allViewerExceptHost = "b689b0a8-53d0-40ab-baf2-68738e2966ac";
    const cachingDisabled = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad";
    const behavior = (p: string) => (cfg.CacheBehaviors as Array<Record<string, any>>).find((b) => b.PathPattern === p)!;
    for (const p of ["/api/*", "/ws"]) {
      expect(behavior(p), p).toBeDefined();
      expect(behavior(p).CachePolicyId).toBe(cachingDisabled);
      expect(behavior(p).OriginRequestPolicyId).toBe(allViewerExceptHost);
    }
    expect(behavior("/api/*").AllowedMethods).toEqual(["GET", "HEAD", "OPTIONS", "PUT", "PATCH", "POST", "DELETE"]);
    const originOf = (id: string) => (cfg.Origins as Array<Record<string, any>>).find((o) => o.Id === id)!;
    const domainJoin = (id: string) => JSON.stringify(originOf(id).DomainName);
    expect(domainJoin(behavior("/api/*").TargetOriginId)).toContain("ApiHttpApi");
    expect(domainJoin(behavior("/ws").TargetOriginId)).toContain("RealtimeWebSocketApi");
    expect(originOf(behavior("/ws").TargetOriginId).OriginPath ?? "").toBe("");
    // The SPA rewrite is only on the bucket's default behaviour, so API 404s stay API 404s.
    expect(cfg.DefaultCacheBehavior.FunctionAssociations).toHaveLength(1);
    expect(originOf(cfg.DefaultCacheBehavior.TargetOriginId).OriginAccessControlId).toBeDefined();
    // The API behaviours run only the viewer-IP function, never the SPA rewrite.
    const apiFns = behavior("/api/*").FunctionAssociations as Array<{ FunctionARN: unknown }>;
    expect(apiFns).toHaveLength(1);
    expect(JSON.stringify(apiFns[0].FunctionARN)).not.toEqual(JSON.stringify(cfg.DefaultCacheBehavior.FunctionAssociations[0].FunctionARN));
    expect(cfg.CustomErrorResponses).toBeUndefined();
  });
});

describe("the SPA rewrite (CloudFront Function)", () => {
  const rewrite = (uri: string) =>
    (new Function(`${SPA_REWRITE_CODE}; return handler;`)() as (e: { request: { uri: string } }) => { uri: string })({ request: { uri } }).uri;

  it("serves /index.html for app routes and keeps real files", () => {
    expect(rewrite("/")).toBe("/index.html");
    expect(rewrite("/tickets/3f2c9a")).toBe("/index.html");
    expect(rewrite("/login")).toBe("/index.html");
    expect(rewrite("/assets/index-4f9a.js")).toBe("/assets/index-4f9a.js");
    expect(rewrite("/favicon.ico")).toBe("/favicon.ico");
  });

  it("is the code the distribution runs", () => {
    template.hasResourceProperties("AWS::CloudFront::Function", { FunctionCode: SPA_REWRITE_CODE, FunctionConfig: Match.objectLike({ Runtime: "cloudfront-js-2.0" }) });
  });
});

describe("secrets", () => {
  it("generates the JWT signing key in Secrets Manager and gives its ARN to the functions", () => {
    const secrets = template.findResources("AWS::SecretsManager::Secret");
    const jwt = Object.entries(secrets).find(([id]) => id.startsWith("DataJwtSigningKey"));
    expect(jwt).toBeDefined();
    expect((jwt![1] as Res).Properties.GenerateSecretString.PasswordLength).toBe(64);
    const fn = resources("AWS::Lambda::Function").find((f) => f.Properties.Description?.startsWith('Atende HTTP area "auth"'))!;
    expect(fn.Properties.Environment.Variables.JWT_SECRET_ARN).toEqual({ Ref: jwt![0] });
  });

  it("generates the key of the connections' API tokens in Secrets Manager and gives the connections area its ARN", () => {
    const secrets = template.findResources("AWS::SecretsManager::Secret");
    const key = Object.entries(secrets).find(([id]) => id.startsWith("DataConnectionTokenKey"));
    expect(key).toBeDefined();
    expect((key![1] as Res).Properties.GenerateSecretString.PasswordLength).toBe(64);
    const fn = resources("AWS::Lambda::Function").find((f) => f.Properties.Description?.startsWith('Atende HTTP area "whatsapp"'))!;
    expect(fn.Properties.Environment.Variables.CONNECTION_TOKEN_KEY_ARN).toEqual({ Ref: key![0] });
  });
});

describe("the first admin", () => {
  it("is seeded on deploy by a custom resource reading the generated first-admin secret", () => {
    const secrets = template.findResources("AWS::SecretsManager::Secret");
    const [adminSecretId, adminSecret] = Object.entries(secrets).find(([id]) => id.startsWith("DataFirstAdminPassword"))! as [string, Res];
    expect(JSON.parse(adminSecret.Properties.GenerateSecretString.SecretStringTemplate)).toEqual({ email: "admin@admin.com" });
    expect(adminSecret.Properties.GenerateSecretString.GenerateStringKey).toBe("password");
    template.hasResource("Custom::AtendeSeed", {
      Properties: { SecretArn: { Ref: adminSecretId }, ServiceToken: { "Fn::GetAtt": [Match.stringLikeRegexp("^Seed"), "Arn"] } },
    });
  });

  it("starts the search backfill on the deploy that brings the index, through the same deploy-time function", () => {
    template.hasResource("Custom::AtendeSearchBackfill", {
      Properties: { Task: "searchBackfill", IndexVersion: SEARCH_INDEX_VERSION, ServiceToken: { "Fn::GetAtt": [Match.stringLikeRegexp("^Seed"), "Arn"] } },
    });
  });

  it("starts the invoice-timer backfill once, through the same deploy-time function", () => {
    template.hasResource("Custom::AtendeInvoiceTimerBackfill", {
      Properties: { Task: "invoiceTimerBackfill", Version: "1", ServiceToken: { "Fn::GetAtt": [Match.stringLikeRegexp("^Seed"), "Arn"] } },
    });
  });
});

describe("outgoing email", () => {
  it("has an SES identity and configuration set, and lets only the auth area send through them", () => {
    expect(resources("AWS::SES::EmailIdentity")).toHaveLength(1);
    expect(resources("AWS::SES::ConfigurationSet")).toHaveLength(1);
    const senders = resources("AWS::Lambda::Function").filter((f) => f.Properties.Environment?.Variables?.MAIL_FROM);
    expect(senders).toHaveLength(1);
    expect(senders[0].Properties.Environment.Variables.MAIL_FROM).toMatch(/^no-reply@/);
    expect(JSON.stringify(senders[0].Properties.Handler ?? "") + JSON.stringify(senders[0].Properties.Description ?? "")).toMatch(/auth/);
    const sendPolicies = Object.values(template.findResources("AWS::IAM::Policy")).filter((p) => JSON.stringify(p).includes("ses:SendEmail"));
    expect(sendPolicies).toHaveLength(1);
  });
});

describe("cdk-nag AwsSolutions", () => {
  it("reports no unacknowledged error", () => {
    const errors = nagViolations(app).filter((v) => v.severity === "error");
    expect(errors.map((e) => `${e.rule} at ${e.paths.join(", ")}`)).toEqual([]);
  });

  it("does flag a bucket without encryption, logs or TLS policy (the check is live)", () => {
    const probe = new App();
    new CfnBucket(new Stack(probe, "Probe"), "Bad");
    const rules = nagViolations(probe).filter((v) => v.severity === "error").map((v) => v.rule);
    expect(rules).toEqual(expect.arrayContaining(["AwsSolutions-S1", "AwsSolutions-S10"]));
  });

  it("runs inside the synth, which succeeds", () => {
    expect(() => app.synth({ force: true })).not.toThrow();
  });
});

describe("hardening", () => {
  it("sends every DLQ alarm to an encrypted SNS topic", () => {
    const topics = template.findResources("AWS::SNS::Topic");
    expect(Object.keys(topics)).toHaveLength(1);
    const [topicId] = Object.keys(topics);
    expect(Object.values(topics)[0].Properties.KmsMasterKeyId).toBeDefined();
    const alarms = resources("AWS::CloudWatch::Alarm");
    expect(alarms.length).toBeGreaterThan(0);
    for (const a of alarms) expect(a.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
  });

  it("throttles the HTTP API stage, tighter on login", () => {
    const [stage] = resources("AWS::ApiGatewayV2::Stage").filter((s) => s.Properties.StageName === "$default");
    expect(stage.Properties.DefaultRouteSettings).toMatchObject({ ThrottlingBurstLimit: expect.any(Number), ThrottlingRateLimit: expect.any(Number) });
    expect(stage.Properties.RouteSettings["POST /api/auth/login"]).toMatchObject({ ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 });
  });

  it("has a CloudFront WAF with per-IP rate rules, attached when deployed in us-east-1", () => {
    const [acl] = resources("AWS::WAFv2::WebACL");
    expect(acl.Properties.Scope).toBe("CLOUDFRONT");
    expect(acl.Properties.Rules.map((r: any) => r.Statement.RateBasedStatement.AggregateKeyType)).toEqual(["IP", "IP"]);
    const [dist] = resources("AWS::CloudFront::Distribution");
    expect(JSON.stringify(dist.Properties.DistributionConfig.WebACLId)).toContain("Fn::If");
  });

  it("sends a Content-Security-Policy with every response (the token lives in localStorage)", () => {
    const [policy] = resources("AWS::CloudFront::ResponseHeadersPolicy");
    const csp = policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy;
    expect(csp.ContentSecurityPolicy).toBe(CONTENT_SECURITY_POLICY);
    expect(csp.ContentSecurityPolicy).toMatch(/script-src 'self'(;|$)/);
    const [dist] = resources("AWS::CloudFront::Distribution");
    const cfg = dist.Properties.DistributionConfig;
    for (const b of [cfg.DefaultCacheBehavior, ...cfg.CacheBehaviors]) expect(b.ResponseHeadersPolicyId).toBeDefined();
  });

  it("lets the API trust a viewer IP only with CloudFront's origin secret", () => {
    const [dist] = resources("AWS::CloudFront::Distribution");
    const cfg = dist.Properties.DistributionConfig;
    const apiOrigins = cfg.Origins.filter((o: any) => o.CustomOriginConfig);
    expect(apiOrigins.length).toBe(2);
    for (const o of apiOrigins) expect(o.OriginCustomHeaders).toEqual([{ HeaderName: "x-atende-origin", HeaderValue: expect.anything() }]);
    for (const b of cfg.CacheBehaviors) expect(b.FunctionAssociations).toHaveLength(1);
    const fns = resources("AWS::CloudFront::Function").map((f) => f.Properties.FunctionCode);
    expect(fns).toContain(VIEWER_IP_CODE);
    const [area] = resources("AWS::Lambda::Function").filter((f) => f.Properties.Environment?.Variables?.ORIGIN_VERIFY_SECRET);
    expect(JSON.stringify(area.Properties.Environment.Variables.ORIGIN_VERIFY_SECRET)).toEqual(JSON.stringify(apiOrigins[0].OriginCustomHeaders[0].HeaderValue));
  });

  it("gives CloudFront's origin secret to every HTTP area and to $connect, so direct execute-api calls are refused", () => {
    const [dist] = resources("AWS::CloudFront::Distribution");
    const headerValue = JSON.stringify(dist.Properties.DistributionConfig.Origins.find((o: any) => o.CustomOriginConfig).OriginCustomHeaders[0].HeaderValue);
    const fns = Object.entries(template.findResources("AWS::Lambda::Function")) as [string, Res][];
    const described = (re: RegExp) => fns.filter(([, f]) => re.test(String(f.Properties.Description ?? "")));
    const areaFns = described(/^Atende HTTP area /);
    expect(areaFns).toHaveLength(areas().length);
    const connect = described(/^WebSocket \$connect/);
    expect(connect).toHaveLength(1);
    const guarded = [...areaFns, ...connect];
    for (const [, f] of guarded) expect(JSON.stringify(f.Properties.Environment.Variables.ORIGIN_VERIFY_SECRET)).toEqual(headerValue);
    // Every HTTP route and $connect is integrated with one of those functions (each checks the header first).
    const integrations = template.findResources("AWS::ApiGatewayV2::Integration") as Record<string, Res>;
    const ws = resources("AWS::ApiGatewayV2::Route").filter((r) => !["$disconnect", "$default"].includes(r.Properties.RouteKey));
    expect(ws.map((r) => r.Properties.RouteKey)).toEqual(["$connect"]);
    const checked = [
      ...ws.map((r) => ({ key: r.Properties.RouteKey as string, fn: integrations[JSON.stringify(r.Properties.Target).match(/"Ref":"([^"]+)"/)?.[1] ?? ""]?.Properties.IntegrationUri })),
      ...httpRoutes(),
    ];
    expect(checked).toHaveLength(routes.length + 1);
    for (const r of checked) {
      const uri = JSON.stringify(r.fn ?? null);
      expect({ route: r.key, guarded: guarded.some(([id]) => uri.includes(`"${id}"`)) }).toEqual({ route: r.key, guarded: true });
    }
  });

  it("lets browsers PUT attachments to the media bucket through presigned URLs", () => {
    const media = resources("AWS::S3::Bucket").find((b) => b.Properties.CorsConfiguration);
    expect(media?.Properties.CorsConfiguration.CorsRules[0].AllowedMethods).toEqual(expect.arrayContaining(["GET", "HEAD", "PUT"]));
  });

  it("refuses to deploy a web build that carries the sandbox page", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "atende-dist-"));
    mkdirSync(path.join(dir, "assets"));
    writeFileSync(path.join(dir, "index.html"), "<!doctype html>");
    writeFileSync(path.join(dir, "assets", "index-abc.js"), 'const routes=[{path:"/tickets"}];');
    expect(() => assertNoSandbox(dir)).not.toThrow();
    writeFileSync(path.join(dir, "assets", "SandboxPage-1a2b.js"), "export{}");
    expect(() => assertNoSandbox(dir)).toThrow(/sandbox/);
    rmSync(path.join(dir, "assets", "SandboxPage-1a2b.js"));
    writeFileSync(path.join(dir, "assets", "index-abc.js"), 'const routes=[{path:"/sandbox",element:x}];');
    expect(() => assertNoSandbox(dir)).toThrow(/build:web:cloud/);
    rmSync(dir, { recursive: true, force: true });
  });
});
