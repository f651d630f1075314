/**
 * Session runner (docs/deploy.md#what-it-creates): an ECS Fargate service (ARM64) running the image built from
 * `session-runner/Dockerfile` (built and pushed by the CLI at deploy/publish time, never at synth).
 *
 * Network layout, chosen for cost: a VPC with public subnets only and no NAT gateway; the task gets a public
 * IP for its outbound connections (WhatsApp, DynamoDB, SQS, S3, API Gateway) and its security group allows
 * no inbound traffic at all. A NAT gateway would add about USD 32/month at rest for no security gain here.
 */
import { Duration, IgnoreMode, RemovalPolicy } from "aws-cdk-lib";
import { FlowLogDestination, FlowLogTrafficType, SecurityGroup, SubnetType, Vpc } from "aws-cdk-lib/aws-ec2";
import { Platform } from "aws-cdk-lib/aws-ecr-assets";
import {
  Cluster,
  ContainerImage,
  CpuArchitecture,
  FargateService,
  FargateTaskDefinition,
  LogDrivers,
  OperatingSystemFamily,
} from "aws-cdk-lib/aws-ecs";
import { Alarm, ComparisonOperator, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { FilterPattern, LogGroup, MetricFilter, RetentionDays } from "aws-cdk-lib/aws-logs";
import { Construct } from "constructs";
import { readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./function.ts";
import { SESSION_SHARDS } from "./data.ts";
import { acknowledge } from "./nag.ts";

/**
 * Patterns of `session-runner/.dockerignore`, applied by CDK when it stages the build context (the repository
 * root, since the image installs the `session-runner` and `shared` workspaces).
 */
export function runnerDockerIgnore(): string[] {
  return readFileSync(path.join(REPO_ROOT, "session-runner/.dockerignore"), "utf8")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
}

/** File the runner touches on every lease tick (`RUNNER_HEARTBEAT_FILE`), read by the container health check. */
export const HEARTBEAT_FILE = "/tmp/runner-heartbeat";

/** Most shards one task holds: its share when all `desiredCount` tasks run, with one task's worth of slack. */
export function runnerMaxShards(desiredCount: number): number {
  const n = Math.max(1, desiredCount);
  return n === 1 ? SESSION_SHARDS : Math.ceil(SESSION_SHARDS / (n - 1));
}

export interface SessionsProps {
  /** Runner environment (TABLE_NAME, MEDIA_BUCKET, queues, WS_MANAGEMENT_ENDPOINT, ...). */
  environment: Record<string, string>;
  /** Tasks to run (each holds some of the 16 shard leases). */
  desiredCount: number;
}

/** VPC, cluster, task definition and Fargate service of the session runner. */
export class Sessions extends Construct {
  readonly vpc: Vpc;
  readonly cluster: Cluster;
  readonly taskDefinition: FargateTaskDefinition;
  readonly service: FargateService;
  /** Inbound messages parked and not yet stored, or given up: alarms on the runner's log lines. */
  readonly parkedAlarm: Alarm;
  readonly deadAlarm: Alarm;

  constructor(scope: Construct, id: string, props: SessionsProps) {
    super(scope, id);
    this.vpc = new Vpc(this, "Vpc", {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: "public", subnetType: SubnetType.PUBLIC, cidrMask: 24 }],
    });
    const flowLogs = new LogGroup(this, "FlowLogs", { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    this.vpc.addFlowLog("FlowLog", { destination: FlowLogDestination.toCloudWatchLogs(flowLogs), trafficType: FlowLogTrafficType.REJECT });

    this.cluster = new Cluster(this, "Cluster", { vpc: this.vpc });
    acknowledge(this.cluster, {
      id: "AwsSolutions-ECS4",
      reason: "Container Insights bills custom metrics per task; the service's CPU and memory metrics come with ECS at no cost and the runner logs JSON.",
    });

    this.taskDefinition = new FargateTaskDefinition(this, "Task", {
      cpu: 256,
      memoryLimitMiB: 512,
      runtimePlatform: { cpuArchitecture: CpuArchitecture.ARM64, operatingSystemFamily: OperatingSystemFamily.LINUX },
    });
    const logs = new LogGroup(this, "RunnerLogs", { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    this.taskDefinition.addContainer("runner", {
      image: ContainerImage.fromAsset(REPO_ROOT, {
        file: "session-runner/Dockerfile",
        platform: Platform.LINUX_ARM64,
        ignoreMode: IgnoreMode.DOCKER,
        exclude: runnerDockerIgnore(),
      }),
      // Each task aims at its fair share of the shards; the cap keeps one task from taking them all
      // while others start, and orphans are still taken when a task is missing.
      environment: { ...props.environment, RUNNER_MAX_SHARDS: String(runnerMaxShards(props.desiredCount)), RUNNER_HEARTBEAT_FILE: HEARTBEAT_FILE },
      logging: LogDrivers.awsLogs({ streamPrefix: "runner", logGroup: logs }),
      // Healthy while the lease loop keeps ticking (every 10 s it touches the heartbeat file); a stuck event loop
      // or a dead lease loop makes ECS replace the task.
      healthCheck: {
        command: ["CMD", "node", "-e", `process.exit(Date.now() - require("fs").statSync("${HEARTBEAT_FILE}").mtimeMs < 60000 ? 0 : 1)`],
        interval: Duration.seconds(30),
        timeout: Duration.seconds(5),
        retries: 3,
        startPeriod: Duration.seconds(60),
      },
      // SIGTERM: stop taking commands, finish in-flight sends, end sockets, release leases (docs/architecture.md#7-the-session-runner-session-runner).
      stopTimeout: Duration.seconds(60),
    });
    // Parked inbound messages: every re-drive pass logs the backlog left; a backlog that stays above 0
    // for 15 minutes, or any message given up (kept raw), needs a look.
    const backlog = new MetricFilter(this, "InboundBacklogMetric", {
      logGroup: logs,
      metricNamespace: "Atende/Runner",
      metricName: "InboundParkedBacklog",
      filterPattern: FilterPattern.stringValue("$.msg", "=", "inbound re-drive"),
      metricValue: "$.backlog",
    }).metric({ period: Duration.minutes(5), statistic: "Minimum" });
    this.parkedAlarm = new Alarm(this, "InboundParkedAlarm", {
      alarmDescription: "Inbound WhatsApp messages parked after ingest failures are not being stored (DynamoDB trouble?).",
      metric: backlog,
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    const dead = new MetricFilter(this, "InboundDeadMetric", {
      logGroup: logs,
      metricNamespace: "Atende/Runner",
      metricName: "InboundKeptRaw",
      filterPattern: FilterPattern.any(
        FilterPattern.stringValue("$.msg", "=", "inbound payload kept raw"),
        FilterPattern.stringValue("$.msg", "=", "inbound message held in memory"),
      ),
      metricValue: "1",
    }).metric({ period: Duration.minutes(5), statistic: "Sum" });
    this.deadAlarm = new Alarm(this, "InboundDeadAlarm", {
      alarmDescription: "An inbound WhatsApp payload could not be stored (kept raw under INDEAD) or is held in a runner's memory.",
      metric: dead,
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    acknowledge(this.taskDefinition.obtainExecutionRole(), {
      id: "AwsSolutions-IAM5[Resource::*]",
      reason: "ecr:GetAuthorizationToken supports no resource-level permission; image pulls themselves are scoped to the asset repository.",
    });
    acknowledge(this.taskDefinition, {
      id: "AwsSolutions-ECS2",
      reason: "The environment holds only resource names and URLs; the one secret (JWT key) is referenced by ARN and read through Secrets Manager.",
    });

    const sg = new SecurityGroup(this, "RunnerSg", {
      vpc: this.vpc,
      description: "Atende session runner: outbound only, no inbound.",
      allowAllOutbound: true,
    });
    this.service = new FargateService(this, "Service", {
      cluster: this.cluster,
      taskDefinition: this.taskDefinition,
      desiredCount: props.desiredCount,
      assignPublicIp: true,
      vpcSubnets: { subnetType: SubnetType.PUBLIC },
      securityGroups: [sg],
      // A replacement starts before the old task leaves; shard leases keep one owner per session.
      minHealthyPercent: 100,
      maxHealthyPercent: 200,
      circuitBreaker: { rollback: true },
      enableExecuteCommand: false,
    });
  }
}
