/**
 * HTTP API (docs/deploy.md#what-it-creates): one API Gateway HTTP API whose routes are exactly the route manifest
 * (`functions/src/http/routes.ts`, paths with the `/api` prefix), one Lambda per area
 * (`functions/src/http/<area>.ts`, middy + `@middy/http-router`), on the `$default` stage so CloudFront
 * forwards `/api/*` unchanged; the routes sit in {@link ROUTE_STACKS} nested stacks. Also the minute tick (EventBridge → `functions/src/jobs/tick.ts`) and the dispatch
 * queue's consumer (`functions/src/jobs/dispatch.ts`, when that module exists).
 */
import { Duration, NestedStack, RemovalPolicy, Stack } from "aws-cdk-lib";
import { type CfnStage, HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from "aws-cdk-lib/aws-apigatewayv2";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import { Rule, Schedule } from "aws-cdk-lib/aws-events";
import { LambdaFunction } from "aws-cdk-lib/aws-events-targets";
import type { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import { LogGroup, RetentionDays } from "aws-cdk-lib/aws-logs";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { existsSync } from "node:fs";
import path from "node:path";
import { areas, routesOf, type Area } from "@atende/functions/http/routes";
import { shardOfName } from "@atende/shared/db/keys";
import { atendeFunction, REPO_ROOT } from "./function.ts";
import { acknowledge } from "./nag.ts";
import { ACCESS_LOG_FORMAT } from "./realtime.ts";

export interface ApiProps {
  /** Environment of every function (TABLE_NAME, MEDIA_BUCKET, JWT_SECRET_ARN, WS_MANAGEMENT_ENDPOINT, ...). */
  environment: Record<string, string>;
  /** The campaign/schedule dispatch queue, consumed by `functions/src/jobs/dispatch.ts` when that module exists. */
  dispatchQueue: IQueue;
  /** The background jobs queue, consumed by `functions/src/jobs/jobs.ts`. */
  jobsQueue?: IQueue;
  /** Company webhooks' attempts, consumed by `functions/src/jobs/webhooks.ts`. */
  webhooksQueue?: IQueue;
  /** Push notifications' fan-outs and retries, consumed by `functions/src/jobs/push.ts`. */
  pushQueue?: IQueue;
  /** The session-command DLQs (one per shard), consumed by `functions/src/jobs/command-dlq.ts`. */
  sessionCommandDlqs?: IQueue[];
}

/** HTTP API stage throttling (requests per second, burst) for every route. */
export const API_THROTTLE = { rate: 200, burst: 400 };
/** Stage throttling of `POST /api/auth/login` (requests per second, burst). */
export const LOGIN_THROTTLE = { rate: 5, burst: 10 };

/**
 * The routes, their integrations and invoke permissions live in this many nested stacks, an area's always in the
 * same one (a stable hash of its name): the main stack stays under CloudFormation's 500 resources as areas grow, and
 * adding an area never moves another's routes between stacks (which CloudFormation would refuse as duplicate keys).
 * Changing this number moves routes: do it only with a deploy that can take the API down briefly.
 */
export const ROUTE_STACKS = 4;

/** The nested stack (0 … {@link ROUTE_STACKS} − 1) holding `area`'s routes. */
export function routeStackOf(area: Area): number {
  return shardOfName(area, ROUTE_STACKS);
}

/** The spreadsheet import's .xls reader, run in a worker thread by the areas that import contacts. */
export const XLS_WORKER = "shared/src/contactLists/xls-worker.mjs";
/** Worker modules each area starts (bundled beside its `index.mjs`). */
export const AREA_WORKERS: Partial<Record<Area, string[]>> = { contacts: [XLS_WORKER], contactLists: [XLS_WORKER] };

/** Entry of the dispatch consumer; wired (like the local stack's poller) only when the module exists. */
export const DISPATCH_CONSUMER_ENTRY = "functions/src/jobs/dispatch.ts";

/** The HTTP API, one function per manifest area, and the minute tick. */
export class Api extends Construct {
  readonly api: HttpApi;
  /** The nested stacks holding the routes ({@link routeStackOf}). */
  readonly routeStacks: NestedStack[];
  /** Area → its Lambda. */
  readonly areaFunctions: Map<Area, NodejsFunction>;
  readonly tick: NodejsFunction;
  /** The dispatch queue's consumer, when `functions/src/jobs/dispatch.ts` exists. */
  readonly dispatch?: NodejsFunction;
  /** Consumer of the session-command DLQs: marks dead-lettered sends failed and tells the agent. */
  readonly commandDlq?: NodejsFunction;
  /** Consumer of the background jobs queue (`shared/src/jobs/`). */
  readonly jobs?: NodejsFunction;
  /** Consumer of the company webhooks queue (one attempt per message). */
  readonly webhooks?: NodejsFunction;
  /** Consumer of the push queue (fan-outs and retries of push notifications). */
  readonly push?: NodejsFunction;
  /** `{apiId}.execute-api.{region}.amazonaws.com`: the CloudFront origin. */
  readonly domainName: string;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.api = new HttpApi(this, "HttpApi", {
      apiName: `${Stack.of(this).stackName}-http`,
      description: "Atende HTTP API (/api/*), reached through CloudFront.",
      createDefaultStage: true,
    });
    const stack = Stack.of(this);
    this.domainName = `${this.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;

    const accessLogs = new LogGroup(this, "AccessLogs", { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const cfnStage = this.api.defaultStage!.node.defaultChild as CfnStage;
    cfnStage.accessLogSettings = { destinationArn: accessLogs.logGroupArn, format: ACCESS_LOG_FORMAT };
    // Stage throttling: a ceiling for the whole API, and a tight one on the password endpoint (login throttling
    // also counts per email and IP in the app, this caps bursts before any Lambda runs).
    cfnStage.defaultRouteSettings = { throttlingBurstLimit: API_THROTTLE.burst, throttlingRateLimit: API_THROTTLE.rate };
    cfnStage.routeSettings = {
      // A JSON map in CloudFormation: keys are written as CloudFormation spells them.
      "POST /api/auth/login": { ThrottlingBurstLimit: LOGIN_THROTTLE.burst, ThrottlingRateLimit: LOGIN_THROTTLE.rate },
    };

    this.areaFunctions = new Map();
    this.routeStacks = Array.from({ length: ROUTE_STACKS }, (_, i) => new NestedStack(this, `Routes${i}`, { description: `Atende HTTP routes, part ${i + 1} of ${ROUTE_STACKS}.` }));
    // The stage's route settings name routes: it is updated after the stacks that hold them.
    for (const routes of this.routeStacks) this.api.defaultStage!.node.addDependency(routes);
    for (const area of areas()) {
      const fn = atendeFunction(this, `Area${area[0].toUpperCase()}${area.slice(1)}`, {
        entry: `functions/src/http/${area}.ts`,
        environment: props.environment,
        description: `Atende HTTP area "${area}": ${routesOf(area).length} routes of the manifest.`,
        workers: AREA_WORKERS[area],
      });
      this.areaFunctions.set(area, fn);
      // One invoke permission per area function for this API (not one per route): the stack stays under
      // CloudFormation's 500 resources as areas grow.
      const integration = new HttpLambdaIntegration(`${area}Integration`, fn, { scopePermissionToRoute: false });
      for (const r of routesOf(area)) {
        new HttpRoute(this.routeStacks[routeStackOf(area)], `${r.method} ${r.path}`, {
          httpApi: this.api,
          routeKey: HttpRouteKey.with(r.path, HttpMethod[r.method]),
          integration,
        });
      }
    }
    // Routes are children of this construct: every one authenticates inside its Lambda (see reason).
    acknowledge(this, {
      id: "AwsSolutions-APIG4",
      reason:
        "Auth levels come from the route manifest and are enforced in the area Lambda (bearer JWT loaded fresh from the user item, connection API token for the public send endpoint); public routes (login, refresh, version, plans) must stay open.",
    });

    this.tick = atendeFunction(this, "Tick", {
      entry: "functions/src/jobs/tick.ts",
      environment: props.environment,
      description: "Atende minute tick: due schedules, auto-close, timers, re-drive of pending work.",
      timeoutSeconds: 55,
    });
    new Rule(this, "EveryMinute", {
      description: "Atende minute tick (functions/src/jobs/tick.ts).",
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaFunction(this.tick, { retryAttempts: 0 })],
    });

    if (existsSync(path.join(REPO_ROOT, DISPATCH_CONSUMER_ENTRY))) {
      this.dispatch = atendeFunction(this, "Dispatch", {
        entry: DISPATCH_CONSUMER_ENTRY,
        environment: props.environment,
        description: "Atende dispatch consumer: campaign shipping and schedule sends (SQS batch, partial failures).",
        // The queue's visibility timeout (6 min) is 6× this, as AWS advises for event source mappings.
        timeoutSeconds: 60,
      });
      // Failed records are returned in batchItemFailures and redelivered; after 5 receives they go to the DLQ.
      this.dispatch.addEventSource(new SqsEventSource(props.dispatchQueue, { batchSize: 10, reportBatchItemFailures: true }));
    }

    if (props.jobsQueue) {
      this.jobs = atendeFunction(this, "Jobs", {
        entry: "functions/src/jobs/jobs.ts",
        environment: props.environment,
        description: "Atende background jobs: a deleted tag taken off every ticket, every ticket of a tab closed (resumable steps).",
        timeoutSeconds: 60,
      });
      // One job per invocation; a failed step returns its record in batchItemFailures and the job resumes later.
      this.jobs.addEventSource(new SqsEventSource(props.jobsQueue, { batchSize: 1, reportBatchItemFailures: true }));
    }

    if (props.webhooksQueue) {
      this.webhooks = atendeFunction(this, "Webhooks", {
        entry: "functions/src/jobs/webhooks.ts",
        environment: props.environment,
        description: "Atende company webhooks: one signed attempt per message (10 s each); retries come back through the tick's timers.",
        timeoutSeconds: 60,
      });
      this.webhooks.addEventSource(new SqsEventSource(props.webhooksQueue, { batchSize: 5, reportBatchItemFailures: true }));
    }

    if (props.pushQueue) {
      this.push = atendeFunction(this, "Push", {
        entry: "functions/src/jobs/push.ts",
        environment: props.environment,
        description: "Atende push notifications: one fan-out or one device's retry per message (10 s per push service answer).",
        timeoutSeconds: 60,
      });
      this.push.addEventSource(new SqsEventSource(props.pushQueue, { batchSize: 5, reportBatchItemFailures: true }));
    }

    if (props.sessionCommandDlqs?.length) {
      this.commandDlq = atendeFunction(this, "CommandDlq", {
        entry: "functions/src/jobs/command-dlq.ts",
        environment: props.environment,
        description: "Atende session-command DLQ consumer: dead-lettered sends are marked failed and the agent is told.",
        timeoutSeconds: 30,
      });
      for (const q of props.sessionCommandDlqs) this.commandDlq.addEventSource(new SqsEventSource(q, { batchSize: 10, reportBatchItemFailures: true }));
    }
  }

  /** Every function of this construct (areas, tick and the queue consumers). */
  get functions(): NodejsFunction[] {
    return [...this.areaFunctions.values(), this.tick, ...(this.dispatch ? [this.dispatch] : []), ...(this.commandDlq ? [this.commandDlq] : []), ...(this.jobs ? [this.jobs] : []), ...(this.webhooks ? [this.webhooks] : []), ...(this.push ? [this.push] : [])];
  }
}
