/**
 * The Atende cloud (docs/deploy.md#what-it-creates) as one CloudFormation stack with one construct per concern:
 * {@link Data} (table, media bucket, queues, secrets), {@link Realtime} (WebSocket API), {@link Api} (HTTP API,
 * area Lambdas, minute tick), {@link Sessions} (Fargate session runner) and {@link Web} (CloudFront + SPA).
 *
 * Why one stack and not five: every concern references the others (the HTTP Lambdas need the WebSocket
 * endpoint, CloudFront needs both APIs, everything needs the table), and cross-stack references become
 * CloudFormation exports that cannot change while imported, which blocks ordinary refactors; cdk-nag finding
 * ids of imported ARNs are also unstable. The constructs keep the concerns apart in code and in the
 * construct tree (`Atende/Data/...`, `Atende/Api/...`); `docs/deploy.md` says more.
 */
import { CfnOutput, CustomResource, Stack, type StackProps } from "aws-cdk-lib";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import type { IGrantable } from "aws-cdk-lib/aws-iam";
import type { Construct } from "constructs";
import { Api } from "./api.ts";
import { Data, SESSION_SHARDS } from "./data.ts";
import { atendeFunction } from "./function.ts";
import { acknowledge, acknowledgeWildcards } from "./nag.ts";
import { Mail } from "./mail.ts";
import { Realtime } from "./realtime.ts";
import { Sessions } from "./sessions.ts";
import { Web } from "./web.ts";

/**
 * The version of the search index the deploy-time backfill start is for (`Custom::AtendeSearchBackfill`): changing it
 * makes the next deploy schedule the backfill of every company not yet done again (e.g. after a table restore). "2":
 * the deploy that brings the report entries schedules their backfill (docs/product/reports.md#keys).
 */
export const SEARCH_INDEX_VERSION = "2";

export interface AtendeStackProps extends StackProps {
  /** Deployment stage name (`STAGE`), part of physical queue names. Default `prod`. */
  stage?: string;
  /** Session runner tasks. Default 1. */
  runnerDesiredCount?: number;
  /** Keep the table, media bucket and secrets when the stack is deleted. Default true. */
  retainData?: boolean;
  /** The domain the platform's emails are sent from (an SES identity, `infra/lib/mail.ts`). Default `atende.example.com`. */
  mailDomain?: string;
}

/** Everything Atende runs on in AWS. */
export class AtendeStack extends Stack {
  readonly data: Data;
  readonly realtime: Realtime;
  readonly api: Api;
  readonly sessions: Sessions;
  readonly web: Web;
  readonly mail: Mail;

  constructor(scope: Construct, id: string, props: AtendeStackProps = {}) {
    super(scope, id, props);
    const stage = props.stage ?? "prod";
    const retainData = props.retainData ?? true;

    this.data = new Data(this, "Data", { namePrefix: `atende-${stage}`, retainData });
    const d = this.data;
    const baseEnv: Record<string, string> = {
      STAGE: stage,
      TABLE_NAME: d.table.tableName,
      MEDIA_BUCKET: d.mediaBucket.bucketName,
      JWT_SECRET_ARN: d.jwtSecret.secretArn,
      CONNECTION_TOKEN_KEY_ARN: d.connectionTokenKey.secretArn,
      SESSION_COMMANDS_QUEUE_URL_PREFIX: d.sessionCommandsUrlPrefix,
      SESSION_SHARDS: String(SESSION_SHARDS),
      DISPATCH_QUEUE_URL: d.dispatch.queue.queueUrl,
      JOBS_QUEUE_URL: d.jobs.queue.queueUrl,
      WEBHOOKS_QUEUE_URL: d.webhooks.queue.queueUrl,
      SECURE_COOKIES: "true",
      WA_PROVIDER: "baileys",
      LOG_LEVEL: "info",
      // Resolved by CloudFormation at deploy (dynamic reference); the same value CloudFront sends in x-atende-origin.
      ORIGIN_VERIFY_SECRET: d.originVerifySecret.secretValue.unsafeUnwrap(),
      // Resolved at deploy like the origin secret: the Pix webhook's ?hmac= (docs/product/invoices.md#pix).
      PIX_WEBHOOK_SECRET: d.pixWebhookSecret.secretValue.unsafeUnwrap(),
      SETTINGS_KMS_KEY_ID: d.settingsKey.keyArn,
    };

    this.realtime = new Realtime(this, "Realtime", { environment: baseEnv });
    const env = { ...baseEnv, WS_MANAGEMENT_ENDPOINT: this.realtime.managementEndpoint };
    this.api = new Api(this, "Api", { environment: env, dispatchQueue: d.dispatch.queue, jobsQueue: d.jobs.queue, webhooksQueue: d.webhooks.queue, sessionCommandDlqs: d.sessionCommands.map((q) => q.dlq) });
    this.sessions = new Sessions(this, "Sessions", {
      environment: env,
      desiredCount: props.runnerDesiredCount ?? 1,
    });
    // Every alarm notifies the one alarm topic, the runner's too.
    for (const alarm of [this.sessions.parkedAlarm, this.sessions.deadAlarm]) alarm.addAlarmAction(new SnsAction(d.alarmTopic));
    this.web = new Web(this, "Web", {
      httpApiDomain: this.api.domainName,
      wsApiDomain: this.realtime.domainName,
      retainData,
      originHeaders: { "x-atende-origin": d.originVerifySecret.secretValue.unsafeUnwrap() },
    });

    // Password-reset codes are mailed by the auth area only (shared/src/mail/send.ts).
    this.mail = new Mail(this, "Mail", { domain: props.mailDomain ?? "atende.example.com" });
    const authFn = this.api.areaFunctions.get("auth");
    if (authFn) {
      this.mail.grantSend(authFn);
      for (const [k, v] of Object.entries(this.mail.environment)) authFn.addEnvironment(k, v);
    }

    // Least privilege: each principal gets the data-plane actions its code makes, on our resources only.
    const tableRw = (g: IGrantable) => d.table.grantReadWriteData(g);
    const sendCommands = (g: IGrantable) => {
      for (const q of d.sessionCommands) q.queue.grantSendMessages(g);
      d.dispatch.queue.grantSendMessages(g);
      d.jobs.queue.grantSendMessages(g);
      d.webhooks.queue.grantSendMessages(g);
    };
    for (const fn of this.realtime.functions) {
      tableRw(fn);
      d.jwtSecret.grantRead(fn);
      this.realtime.grantManageConnections(fn);
    }
    // Only the settings area seals and opens integration credentials (docs/product/settings.md#integration-credentials).
    const settingsFn = this.api.areaFunctions.get("settings");
    if (settingsFn) d.settingsKey.grant(settingsFn, "kms:Encrypt", "kms:Decrypt");
    for (const fn of this.api.areaFunctions.values()) {
      tableRw(fn);
      d.jwtSecret.grantRead(fn);
      d.connectionTokenKey.grantRead(fn);
      d.mediaBucket.grantReadWrite(fn);
      d.mediaBucket.grantDelete(fn);
      sendCommands(fn);
      this.realtime.grantManageConnections(fn);
    }
    for (const fn of [this.api.tick, ...(this.api.dispatch ? [this.api.dispatch] : []), ...(this.api.commandDlq ? [this.api.commandDlq] : []), ...(this.api.jobs ? [this.api.jobs] : []), ...(this.api.webhooks ? [this.api.webhooks] : [])]) {
      tableRw(fn);
      sendCommands(fn);
      this.realtime.grantManageConnections(fn);
    }
    // AI prompts seal their provider's keys through the same port and key (docs/product/prompts.md#keys): the prompts
    // area seals; the assistant (in the runner, re-run by the minute tick) opens them.
    const promptsFn = this.api.areaFunctions.get("prompts");
    if (promptsFn) d.settingsKey.grant(promptsFn, "kms:Encrypt");
    // Queue integrations seal Dialogflow's credentials and the flows' signing secrets the same way
    // (docs/product/integrations.md#credentials): the area seals, and opens for the test session; the bots open.
    const integrationsFn = this.api.areaFunctions.get("queueIntegrations");
    if (integrationsFn) d.settingsKey.grant(integrationsFn, "kms:Encrypt", "kms:Decrypt");
    d.settingsKey.grant(this.api.tick, "kms:Decrypt");
    d.settingsKey.grant(this.sessions.taskDefinition.taskRole, "kms:Decrypt");
    d.mediaBucket.grantReadWrite(this.api.tick); // a re-run answer reads a voice note and stores a spoken reply
    // Campaign messages may carry media: the dispatch consumer reads objects to attach them.
    if (this.api.dispatch) d.mediaBucket.grantRead(this.api.dispatch);
    // Company webhooks' secrets are sealed with the connections' token key: their consumer opens them to sign.
    if (this.api.webhooks) d.connectionTokenKey.grantRead(this.api.webhooks);

    const taskRole = this.sessions.taskDefinition.taskRole;
    tableRw(taskRole);
    d.mediaBucket.grantReadWrite(taskRole);
    for (const q of d.sessionCommands) q.queue.grantConsumeMessages(taskRole);
    d.dispatch.queue.grantSendMessages(taskRole);
    this.realtime.grantManageConnections(taskRole);

    // First data on deploy: plan, company and the super admin whose password is the generated secret.
    const seed = atendeFunction(this, "Seed", {
      entry: "infra/lib/seed-handler.ts",
      environment: env,
      description: "Atende deploy-time jobs: first plan, company and super admin (password from Secrets Manager); search backfill and invoice-timer backfill start.",
      timeoutSeconds: 120,
    });
    tableRw(seed);
    d.firstAdminSecret.grantRead(seed);
    new CustomResource(this, "FirstAdmin", {
      serviceToken: seed.functionArn,
      resourceType: "Custom::AtendeSeed",
      properties: { SecretArn: d.firstAdminSecret.secretArn },
    });
    // The search backfill: on the deploy that brings the index (and when SEARCH_INDEX_VERSION changes),
    // every company not yet indexed gets its backfill timer; the minute tick does the work, resumably.
    new CustomResource(this, "SearchBackfill", {
      serviceToken: seed.functionArn,
      resourceType: "Custom::AtendeSearchBackfill",
      properties: { Task: "searchBackfill", IndexVersion: SEARCH_INDEX_VERSION },
    });
    // Companies stored before every due-date write carried its invoice timer get theirs, once (the tick walks them).
    new CustomResource(this, "InvoiceTimerBackfill", {
      serviceToken: seed.functionArn,
      resourceType: "Custom::AtendeInvoiceTimerBackfill",
      properties: { Task: "invoiceTimerBackfill", Version: "1" },
    });

    acknowledge(this, {
      id: "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]",
      reason: "The AWS managed basic execution role only lets a function write its own CloudWatch Logs streams.",
    });
    acknowledgeWildcards(this, [
      {
        finding: /^Resource::<DataTable[0-9A-F]{8}\.Arn>\/index\/\*$/,
        reason: "Queries on the table's four GSIs (GSI1..GSI4, docs/architecture.md#3-the-table); the grant names our table only.",
      },
      {
        finding: /^Resource::<DataMedia[0-9A-F]{8}\.Arn>\/\*$/,
        reason: "Object keys are per company and per message (media/<cid>/..., logos, imports); tenant scoping is done in shared/storage/media.ts.",
      },
      {
        finding: /^Action::s3:(GetObject\*|GetBucket\*|List\*|DeleteObject\*|Abort\*)$/,
        reason: "CDK's S3 grant action groups (read/write/delete objects), each granted on one named bucket of this stack.",
      },
      {
        finding: /^Resource::arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<RealtimeWebSocketApi[0-9A-F]{8}>\/ws\/\*\/@connections\/\*$/,
        reason: "Realtime publishing posts to whichever connection ids are registered at the moment (@connections/{id}); the grant names our WebSocket API's stage only.",
      },
      {
        finding: /^Action::(logs|ecr):/,
        reason: "Fargate execution role: pull the runner image and write its log stream (CDK's generated grants).",
      },
    ]);

    new CfnOutput(this, "Url", { value: `https://${this.web.distribution.distributionDomainName}`, description: "Atende web app (and /api, /ws)" });
    new CfnOutput(this, "FirstAdminSecretArn", { value: d.firstAdminSecret.secretArn, description: "Secret holding the first admin's email and password" });
    new CfnOutput(this, "TableName", { value: d.table.tableName });
  }
}
