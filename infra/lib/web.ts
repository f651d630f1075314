/**
 * Web (DESIGN.md §3): CloudFront in front of everything, so the browser and the API share one origin (the
 * refresh-token cookie stays first-party):
 * - default behaviour: the private web bucket through Origin Access Control; a CloudFront Function rewrites
 *   extension-less paths to `/index.html` (SPA routing) for this behaviour only, so API 404s are never rewritten;
 * - `/api/*`: the HTTP API, every method, no caching, every viewer header/cookie/query but Host;
 * - `/ws`: the WebSocket API's `ws` stage, same forwarding (query `?token=`, Sec-WebSocket-* headers).
 * The SPA is uploaded from `web/dist` with `BucketDeployment` when that folder exists at synth.
 */
import { Annotations, RemovalPolicy, Stack } from "aws-cdk-lib";
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CfFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from "aws-cdk-lib/aws-cloudfront";
import { HttpOrigin, S3BucketOrigin } from "aws-cdk-lib/aws-cloudfront-origins";
import type { Bucket, CfnBucket } from "aws-cdk-lib/aws-s3";
import { BucketDeployment, Source } from "aws-cdk-lib/aws-s3-deployment";
import { Construct } from "constructs";
import { existsSync } from "node:fs";
import path from "node:path";
import { logBucket, privateBucket } from "./data.ts";
import { REPO_ROOT } from "./function.ts";
import { acknowledge } from "./nag.ts";
import { WS_STAGE } from "./realtime.ts";

/** Folder of the built SPA (`npm run build -w web`). */
export const WEB_DIST = path.join(REPO_ROOT, "web/dist");

/** CloudFront Function (viewer request, default behaviour): `/tickets/abc` → `/index.html`; files keep their path. */
export const SPA_REWRITE_CODE = `function handler(event) {
  var request = event.request;
  var last = request.uri.split('/').pop();
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

export interface WebProps {
  /** `{apiId}.execute-api.{region}.amazonaws.com` of the HTTP API. */
  httpApiDomain: string;
  /** `{apiId}.execute-api.{region}.amazonaws.com` of the WebSocket API. */
  wsApiDomain: string;
  retainData: boolean;
}

/** The web bucket, the CloudFront distribution and the SPA upload. */
export class Web extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** False when `web/dist` was absent at synth (the distribution then serves an empty bucket). */
  readonly deployed: boolean;

  constructor(scope: Construct, id: string, props: WebProps) {
    super(scope, id);
    const removal = props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const logs = logBucket(this, "Logs", removal);
    // The SPA is a build output: always re-deployable, so it is destroyed with the stack.
    this.bucket = privateBucket(this, "Bucket", { removal: RemovalPolicy.DESTROY, logs, logsPrefix: "web-bucket/" });

    const spaRewrite = new CfFunction(this, "SpaRewrite", {
      code: FunctionCode.fromInline(SPA_REWRITE_CODE),
      runtime: FunctionRuntime.JS_2_0,
      comment: "Atende SPA routing: extension-less paths serve /index.html",
    });

    const apiBehavior = (domain: string) => ({
      origin: new HttpOrigin(domain, { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY }),
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // With caching off this forwards Authorization, cookies and the query string; Host stays the origin's.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: ResponseHeadersPolicy.SECURITY_HEADERS,
      compress: false,
    });

    this.distribution = new Distribution(this, "Distribution", {
      comment: "Atende: SPA, /api/* and /ws on one origin",
      defaultRootObject: "index.html",
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: "cloudfront/",
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: ResponseHeadersPolicy.SECURITY_HEADERS,
        compress: true,
        functionAssociations: [{ function: spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        "/api/*": apiBehavior(props.httpApiDomain),
        [`/${WS_STAGE}`]: apiBehavior(props.wsApiDomain),
      },
    });
    acknowledge(this.distribution, {
      id: "AwsSolutions-CFR4",
      reason:
        "The distribution uses the default *.cloudfront.net certificate, for which CloudFront fixes the TLS policy; attach a custom domain and ACM certificate to pin TLSv1.2_2021.",
    });
    acknowledge(this.distribution, {
      id: "AwsSolutions-CFR1",
      reason: "Customer-service agents and companies may be anywhere; no geo restriction is part of the product.",
    });
    acknowledge(this.distribution, {
      id: "AwsSolutions-CFR2",
      reason: "A WAF web ACL costs USD 5+/month at rest; login throttling is done by the app (LOGIN_MAX_ATTEMPTS). Add one when traffic warrants it.",
    });

    this.deployed = existsSync(path.join(WEB_DIST, "index.html"));
    if (this.deployed) {
      const deployment = new BucketDeployment(this, "Deploy", {
        sources: [Source.asset(WEB_DIST)],
        destinationBucket: this.bucket,
        distribution: this.distribution,
        distributionPaths: ["/*"],
        memoryLimit: 512,
      });
      // CDK's deployment handler (a singleton custom-resource Lambda at stack level) runs only during deploys.
      acknowledge(
        deployment.handlerRole,
        {
          id: "AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]",
          reason: "CDK's deployment handler reads the uploaded SPA zip from the bootstrap assets bucket.",
        },
        {
          id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).resolve((this.bucket.node.defaultChild as CfnBucket).logicalId)}.Arn>/*]`,
          reason: "CDK's deployment handler writes and prunes every object of the web bucket (the SPA build).",
        },
        {
          id: "AwsSolutions-IAM5[Resource::*]",
          reason: "cloudfront:CreateInvalidation/GetInvalidation are granted by CDK on * to invalidate the distribution after an upload.",
        },
      );
      for (const child of Stack.of(this).node.children) {
        if (child.node.id.startsWith("Custom::CDKBucketDeployment")) {
          acknowledge(child, {
            id: "AwsSolutions-L1",
            reason: "CDK's BucketDeployment handler runtime is chosen by aws-cdk-lib (Python, with the AWS CLI layer) and runs only during deploys.",
          });
        }
      }
    } else {
      Annotations.of(this).addWarningV2(
        "atende:webDistMissing",
        "web/dist not found at synth: the web bucket is left empty. Run `VITE_SANDBOX=false npm run build -w web` before deploying.",
      );
    }
  }
}
