/**
 * Realtime (docs/deploy.md#what-it-creates): the API Gateway WebSocket API with `$connect` (redeems a single-use `?ticket=` and requires
 * CloudFront's origin secret header), `$disconnect` and `$default` (join/leave rooms, userStatus) served by
 * `functions/src/ws/*`, on a stage named `ws` with auto deploy, so CloudFront can forward the viewer path `/ws`
 * unchanged and the browser's socket URL is `wss://{host}/ws?ticket=...`.
 */
import { RemovalPolicy, Stack } from "aws-cdk-lib";
import { WebSocketApi, WebSocketStage, type CfnStage } from "aws-cdk-lib/aws-apigatewayv2";
import { WebSocketLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import { Effect, type IGrantable, PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import { LogGroup, RetentionDays } from "aws-cdk-lib/aws-logs";
import { Construct } from "constructs";
import { atendeFunction } from "./function.ts";
import { acknowledge } from "./nag.ts";

/** The WebSocket stage name; also the viewer path CloudFront forwards (`/ws`). */
export const WS_STAGE = "ws";

/** API Gateway access-log line (JSON) shared by the HTTP and WebSocket stages. */
export const ACCESS_LOG_FORMAT = JSON.stringify({
  requestId: "$context.requestId",
  ip: "$context.identity.sourceIp",
  requestTime: "$context.requestTime",
  routeKey: "$context.routeKey",
  status: "$context.status",
  connectionId: "$context.connectionId",
  eventType: "$context.eventType",
  integrationError: "$context.integrationErrorMessage",
  latencyMs: "$context.integrationLatency",
});

export interface RealtimeProps {
  /** Environment for the ws functions, without WS_MANAGEMENT_ENDPOINT (added here). */
  environment: Record<string, string>;
}

/** The WebSocket API, its stage and its three functions. */
export class Realtime extends Construct {
  readonly api: WebSocketApi;
  readonly stage: WebSocketStage;
  readonly functions: NodejsFunction[];
  /** `https://{apiId}.execute-api.{region}.amazonaws.com/ws`: the `@connections` management endpoint. */
  readonly managementEndpoint: string;
  /** `{apiId}.execute-api.{region}.amazonaws.com`: the CloudFront origin. */
  readonly domainName: string;

  constructor(scope: Construct, id: string, props: RealtimeProps) {
    super(scope, id);
    this.api = new WebSocketApi(this, "WebSocketApi", {
      apiName: `${Stack.of(this).stackName}-ws`,
      description: "Atende realtime events (company-{id}-{name} frames).",
    });
    const stack = Stack.of(this);
    this.domainName = `${this.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
    this.managementEndpoint = `https://${this.domainName}/${WS_STAGE}`;

    const env = { ...props.environment, WS_MANAGEMENT_ENDPOINT: this.managementEndpoint };
    const fn = (name: "connect" | "disconnect" | "default", description: string) =>
      atendeFunction(this, `Ws${name[0].toUpperCase()}${name.slice(1)}`, {
        entry: `functions/src/ws/${name}.ts`,
        environment: env,
        description,
        memorySize: 512,
        timeoutSeconds: 10,
      });
    const connect = fn("connect", "WebSocket $connect: origin secret, single-use ?ticket=, registers the connection.");
    const disconnect = fn("disconnect", "WebSocket $disconnect: removes the connection and its rooms.");
    const dflt = fn("default", "WebSocket $default: joinNotification/joinTickets/joinChatBox/leave*/userStatus frames.");
    this.functions = [connect, disconnect, dflt];

    this.api.addRoute("$connect", { integration: new WebSocketLambdaIntegration("ConnectIntegration", connect) });
    this.api.addRoute("$disconnect", { integration: new WebSocketLambdaIntegration("DisconnectIntegration", disconnect) });
    this.api.addRoute("$default", { integration: new WebSocketLambdaIntegration("DefaultIntegration", dflt) });

    this.stage = new WebSocketStage(this, "Stage", { webSocketApi: this.api, stageName: WS_STAGE, autoDeploy: true });
    const accessLogs = new LogGroup(this, "AccessLogs", { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const cfnStage = this.stage.node.defaultChild as CfnStage;
    cfnStage.accessLogSettings = { destinationArn: accessLogs.logGroupArn, format: ACCESS_LOG_FORMAT };

    // Routes are children of the API construct, so this covers the three of them.
    acknowledge(this.api, {
      id: "AwsSolutions-APIG4",
      reason: "$connect checks CloudFront's origin secret and redeems a single-use ticket inside the function; other routes only reach registered connections.",
    });
  }

  /** Lets `grantee` post to and delete connections of this API (`execute-api:ManageConnections` on `@connections/*`). */
  grantManageConnections(grantee: IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ["execute-api:ManageConnections"],
        resources: [
          Stack.of(this).formatArn({
            service: "execute-api",
            resource: this.api.apiId,
            resourceName: `${WS_STAGE}/*/@connections/*`,
          }),
        ],
      }),
    );
  }
}
