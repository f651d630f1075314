/**
 * Data layer of the cloud (docs/deploy.md#what-it-creates): the one DynamoDB table built from the definition `infra/local`
 * also uses, the private media bucket (with its server-access-log bucket), the SQS queues with their DLQs and
 * DLQ-depth alarms, and the Secrets Manager secrets (JWT signing key, the key sealing connections' API tokens, CloudFront's origin secret, first admin's password).
 */
import { Duration, RemovalPolicy, Stack } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import { Alias, Key } from "aws-cdk-lib/aws-kms";
import { Topic } from "aws-cdk-lib/aws-sns";
import { AttributeType, Billing, TableV2 } from "aws-cdk-lib/aws-dynamodb";
import { BlockPublicAccess, Bucket, BucketEncryption, type CorsRule, HttpMethods, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { Secret } from "aws-cdk-lib/aws-secretsmanager";
import { DeduplicationScope, FifoThroughputLimit, Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { tableDefinition } from "@atende/shared/db/table";
import { acknowledge } from "./nag.ts";

/** Number of session shards, each with its own FIFO command queue (docs/architecture.md#7-the-session-runner-session-runner). */
export const SESSION_SHARDS = 16;

export interface DataProps {
  /** Prefix of physical names that code derives URLs from (queues): `atende-<stage>`. */
  namePrefix: string;
  /** RETAIN the table, the media bucket and the secrets on stack deletion (production) or DESTROY them. */
  retainData: boolean;
}

/** A queue with its dead-letter queue and the alarm on the DLQ's depth. */
export interface QueueWithDlq {
  queue: Queue;
  dlq: Queue;
  alarm: Alarm;
}

/** Creates an encrypted, TLS-only bucket with public access blocked. */
export function privateBucket(
  scope: Construct,
  id: string,
  props: { removal: RemovalPolicy; logs?: Bucket; logsPrefix?: string; cors?: CorsRule[] },
): Bucket {
  return new Bucket(scope, id, {
    cors: props.cors,
    encryption: BucketEncryption.S3_MANAGED,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    removalPolicy: props.removal,
    autoDeleteObjects: false,
    serverAccessLogsBucket: props.logs,
    serverAccessLogsPrefix: props.logsPrefix,
  });
}

/** Creates the server-access-log bucket: private, encrypted, TLS-only, objects expire after 90 days. */
export function logBucket(scope: Construct, id: string, removal: RemovalPolicy): Bucket {
  const logs = new Bucket(scope, id, {
    encryption: BucketEncryption.S3_MANAGED,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    // CloudFront standard logs are delivered with ACLs, so the owner keeps ACLs enabled but owns the objects.
    objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
    removalPolicy: removal,
    lifecycleRules: [{ expiration: Duration.days(90) }],
  });
  acknowledge(logs, {
    id: "AwsSolutions-S1",
    reason: "This is the access-log bucket itself; logging it into itself would loop.",
  });
  return logs;
}

/** The table, bucket, queues and secrets every other part of the cloud uses. */
export class Data extends Construct {
  /** SNS topic every alarm notifies (DLQ depth). */
  readonly alarmTopic: Topic;
  /** The shared value proving an API request came through CloudFront (header `x-atende-origin`). */
  readonly originVerifySecret: Secret;
  /** The Pix confirmation webhook's secret (`PIX_WEBHOOK_SECRET`; docs/product/invoices.md#pix). */
  readonly pixWebhookSecret: Secret;
  /** The KMS key that seals the companies' integration credentials (`SETTINGS_KMS_KEY_ID`; docs/product/settings.md). */
  readonly settingsKey: Key;
  readonly table: TableV2;
  readonly mediaBucket: Bucket;
  readonly logsBucket: Bucket;
  readonly jwtSecret: Secret;
  /** Key of the connections' API tokens at rest (AES-256-GCM, `CONNECTION_TOKEN_KEY_ARN`). */
  readonly connectionTokenKey: Secret;
  readonly firstAdminSecret: Secret;
  /** `session-commands-<n>.fifo`, n = 0..SESSION_SHARDS-1 (index = shard). */
  readonly sessionCommands: QueueWithDlq[];
  readonly dispatch: QueueWithDlq;
  /** Background jobs (`shared/src/jobs/`): deleting a tag from every ticket, closing every ticket of a tab. */
  readonly jobs: QueueWithDlq;
  /** Company webhooks' attempts (`shared/src/webhooks/`), consumed by `functions/src/jobs/webhooks.ts`. */
  readonly webhooks: QueueWithDlq;
  /** Push notifications' fan-outs and retries (`shared/src/push/`), consumed by `functions/src/jobs/push.ts`. */
  readonly push: QueueWithDlq;
  /**
   * The VAPID key pair of push notifications (`VAPID_KEYS_ARN`; docs/deploy.md#push-notifications): created holding a
   * placeholder; `{"publicKey","privateKey"}` is put in it once after the first deploy (push is off until then).
   */
  readonly vapidKeys: Secret;
  /** Queue URL prefix the code appends `-<n>.fifo` to (`SESSION_COMMANDS_QUEUE_URL_PREFIX`). */
  readonly sessionCommandsUrlPrefix: string;

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);
    const removal = props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const str = (name: string) => ({ name, type: AttributeType.STRING });

    this.table = new TableV2(this, "Table", {
      partitionKey: str(tableDefinition.partitionKey),
      sortKey: str(tableDefinition.sortKey),
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      globalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((g) => ({
        indexName: g.indexName,
        partitionKey: str(g.partitionKey),
        sortKey: str(g.sortKey),
      })),
      removalPolicy: removal,
      deletionProtection: props.retainData,
    });

    this.logsBucket = logBucket(this, "AccessLogs", removal);
    this.mediaBucket = privateBucket(this, "Media", {
      removal,
      logs: this.logsBucket,
      logsPrefix: "media/",
      // Browsers fetch media through short-lived presigned GET URLs and upload attachments through presigned PUTs
      // (shared/storage/media.ts): the signature (key, type and size), not the origin, grants access.
      cors: [{ allowedMethods: [HttpMethods.GET, HttpMethods.HEAD, HttpMethods.PUT], allowedOrigins: ["*"], allowedHeaders: ["*"], exposedHeaders: ["ETag"], maxAge: 3600 }],
    });

    this.jwtSecret = new Secret(this, "JwtSigningKey", {
      description: "Atende: HS256 signing key of access and refresh tokens (JWT_SECRET_ARN).",
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: removal,
    });
    acknowledge(this.jwtSecret, {
      id: "AwsSolutions-SMG4",
      reason:
        "Rotating the JWT key signs every user out; it is rotated by hand (new secret version) when needed. Lambdas cache it per container, so a rotation takes effect as containers recycle.",
    });
    this.connectionTokenKey = new Secret(this, "ConnectionTokenKey", {
      description: "Atende: key that seals the connections' API tokens at rest (CONNECTION_TOKEN_KEY_ARN).",
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: removal,
    });
    acknowledge(this.connectionTokenKey, {
      id: "AwsSolutions-SMG4",
      reason:
        "Rotating this key makes every stored connection token unreadable; it is rotated by hand together with regenerating the tokens (POST /api/whatsapp/{id}/token).",
    });
    this.vapidKeys = new Secret(this, "VapidKeys", {
      description: "Atende: VAPID key pair of push notifications, {publicKey, privateKey} base64url (VAPID_KEYS_ARN).",
      generateSecretString: { passwordLength: 32, excludePunctuation: true },
      removalPolicy: removal,
    });
    acknowledge(this.vapidKeys, {
      id: "AwsSolutions-SMG4",
      reason: "Every browser subscribed with the VAPID public key: rotating it silently ends every device's subscription, so it is replaced by hand only (docs/deploy.md#push-notifications).",
    });
    this.originVerifySecret = new Secret(this, "OriginVerify", {
      description: "Atende: value CloudFront adds as x-atende-origin to API requests (ORIGIN_VERIFY_SECRET).",
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acknowledge(this.originVerifySecret, {
      id: "AwsSolutions-SMG4",
      reason: "Resolved into the CloudFront origin header and the functions' environment at deploy; a new value is set by replacing the secret and redeploying.",
    });
    this.pixWebhookSecret = new Secret(this, "PixWebhookSecret", {
      description: "Atende: secret the Pix provider's webhook URL carries as ?hmac= (PIX_WEBHOOK_SECRET).",
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acknowledge(this.pixWebhookSecret, {
      id: "AwsSolutions-SMG4",
      reason: "Registered at the Pix provider as part of the webhook URL; a new value is set by replacing the secret, redeploying and registering the webhook again.",
    });
    this.settingsKey = new Key(this, "SettingsKey", {
      description: "Atende: seals the companies' integration credentials (IXC, MK-AUTH, ASAAS) at rest.",
      enableKeyRotation: true,
      removalPolicy: removal,
    });
    this.firstAdminSecret = new Secret(this, "FirstAdminPassword", {
      description: "Atende: password of the first super admin (admin@admin.com), seeded on first deploy.",
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ email: "admin@admin.com" }),
        generateStringKey: "password",
        passwordLength: 20,
        excludePunctuation: true,
      },
      removalPolicy: removal,
    });
    acknowledge(this.firstAdminSecret, {
      id: "AwsSolutions-SMG4",
      reason: "Used once to seed the first admin, who then changes the password in the app; rotating the secret would not change the user's password.",
    });

    // Every alarm (DLQ depth) notifies this topic; subscribe the on-call email or chat to it (docs/deploy.md).
    this.alarmTopic = new Topic(this, "Alarms", {
      displayName: "Atende alarms",
      enforceSSL: true,
      masterKey: Alias.fromAliasName(this, "SnsManagedKey", "alias/aws/sns"),
    });

    const region = Stack.of(this).region;
    const account = Stack.of(this).account;
    const urlSuffix = Stack.of(this).urlSuffix;
    const commandsName = `${props.namePrefix}-session-commands`;
    this.sessionCommandsUrlPrefix = `https://sqs.${region}.${urlSuffix}/${account}/${commandsName}`;

    this.sessionCommands = Array.from({ length: SESSION_SHARDS }, (_, n) =>
      this.queueWithDlq(`SessionCommands${n}`, {
        queueName: `${commandsName}-${n}.fifo`,
        fifo: true,
        // The runner visibility window: a send (with media upload) finishes well inside 2 minutes.
        visibilityTimeout: Duration.minutes(2),
      }),
    );
    this.jobs = this.queueWithDlq("Jobs", {
      queueName: `${props.namePrefix}-jobs`,
      fifo: false,
      // 6× the consumer's 60 s timeout (AWS's advice for event source mappings): a consumer that died comes back then.
      visibilityTimeout: Duration.minutes(6),
    });
    this.dispatch = this.queueWithDlq("Dispatch", {
      queueName: `${props.namePrefix}-dispatch`,
      fifo: false,
      // Must be ≥ the consumer Lambda's timeout (6× is AWS's advice for event source mappings).
      visibilityTimeout: Duration.minutes(6),
    });
    this.webhooks = this.queueWithDlq("Webhooks", {
      queueName: `${props.namePrefix}-webhooks`,
      fifo: false,
      // 6× the consumer's 60 s timeout (AWS's advice for event source mappings).
      visibilityTimeout: Duration.minutes(6),
    });
    this.push = this.queueWithDlq("Push", {
      queueName: `${props.namePrefix}-push`,
      fifo: false,
      // 6× the consumer's 60 s timeout; a failing device's retry comes back with its own delay (DelaySeconds).
      visibilityTimeout: Duration.minutes(6),
    });
  }

  private queueWithDlq(id: string, props: { queueName: string; fifo: boolean; visibilityTimeout: Duration }): QueueWithDlq {
    const common = {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(4),
    };
    const fifo = props.fifo
      ? {
          fifo: true,
          // Dedupe id = our command id, never the body's hash.
          contentBasedDeduplication: false,
          deduplicationScope: DeduplicationScope.MESSAGE_GROUP,
          fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
        }
      : {};
    const dlq = new Queue(this, `${id}Dlq`, {
      ...common,
      ...(props.fifo ? { fifo: true, contentBasedDeduplication: false } : {}),
      queueName: props.queueName.replace(/(\.fifo)?$/, (m) => `-dlq${m}`),
      retentionPeriod: Duration.days(14),
    });
    acknowledge(dlq, { id: "AwsSolutions-SQS3", reason: "This queue is itself a dead-letter queue." });
    const queue = new Queue(this, id, {
      ...common,
      ...fifo,
      queueName: props.queueName,
      visibilityTimeout: props.visibilityTimeout,
      deadLetterQueue: { queue: dlq, maxReceiveCount: 5 },
    });
    const alarm = new Alarm(this, `${id}DlqAlarm`, {
      alarmDescription: `Messages in ${props.queueName}'s dead-letter queue: a message failed 5 times and needs a look.`,
      metric: dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: "Maximum" }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(this.alarmTopic));
    return { queue, dlq, alarm };
  }
}
