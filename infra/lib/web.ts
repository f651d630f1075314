/**
 * Web (docs/deploy.md#what-it-creates): CloudFront in front of everything, so the browser and the API share one origin (the
 * refresh-token cookie stays first-party):
 * - default behaviour: the private web bucket through Origin Access Control; a CloudFront Function rewrites
 *   extension-less paths to `/index.html` (SPA routing) for this behaviour only, so API 404s are never rewritten;
 * - `/api/*`: the HTTP API, every method, no caching, every viewer header/cookie/query but Host;
 * - `/ws`: the WebSocket API's `ws` stage, same forwarding (query `?ticket=`, Sec-WebSocket-* headers).
 * Both API origins get the origin secret header (`x-atende-origin`); every HTTP route and `$connect` refuse a request
 * without it (a direct execute-api call).
 * The SPA is uploaded from `web/dist-cloud` (built with the sandbox off; a build carrying it fails the synth) with
 * `BucketDeployment` when that folder exists at synth. Every response carries a Content-Security-Policy.
 */
import { Annotations, Aws, CfnCondition, Duration, Fn, RemovalPolicy, Stack, Token } from "aws-cdk-lib";
import { CfnWebACL } from "aws-cdk-lib/aws-wafv2";
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CfFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from "aws-cdk-lib/aws-cloudfront";
import { HttpOrigin, S3BucketOrigin } from "aws-cdk-lib/aws-cloudfront-origins";
import type { Bucket, CfnBucket } from "aws-cdk-lib/aws-s3";
import { BucketDeployment, CacheControl, Source } from "aws-cdk-lib/aws-s3-deployment";
import { Construct } from "constructs";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { logBucket, privateBucket } from "./data.ts";
import { REPO_ROOT } from "./function.ts";
import { acknowledge } from "./nag.ts";
import { WS_STAGE } from "./realtime.ts";

/**
 * Folder of the SPA built for the cloud (`npm run build:web:cloud`: `VITE_SANDBOX=false`, out dir `web/dist-cloud`),
 * apart from the local build (`web/dist`, sandbox on) so a local build can never be the one deployed.
 */
export const WEB_DIST = path.join(REPO_ROOT, "web/dist-cloud");
/** The service worker the SPA registers and the web app manifest (`web/public`), served uncached with their types. */
export const SERVICE_WORKER = "service-worker.js";
export const WEB_MANIFEST = "manifest.webmanifest";

/**
 * Fails the synth when a web build still carries the sandbox phone (`/sandbox`, a public page that drives the local
 * simulator): its lazy `SandboxPage` chunk, or the route path in a script. Throws an Error naming the file.
 */
export function assertNoSandbox(dist: string): void {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else files.push(p);
    }
  };
  walk(dist);
  for (const f of files) {
    const rel = path.relative(dist, f);
    if (/sandbox/i.test(path.basename(f)) || (f.endsWith(".js") && /["'`]\/sandbox["'`]/.test(readFileSync(f, "utf8")))) {
      throw new Error(`${rel} in ${dist} carries the sandbox page: build the cloud web with \`npm run build:web:cloud\` (VITE_SANDBOX=false).`);
    }
  }
}

/**
 * Content-Security-Policy of every response (the access token lives in localStorage, so no script but our own may
 * run): scripts, styles, fonts and images from this origin (images also data:/blob: and presigned S3 media over
 * https), XHR/WebSocket to this origin only, no framing, no plugins, forms post here only.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' blob: https:",
  "font-src 'self' data:",
  "connect-src 'self' wss: https:",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join("; ");

/** CloudFront Function (viewer request, default behaviour): `/tickets/abc` → `/index.html`; files keep their path. */
export const SPA_REWRITE_CODE = `function handler(event) {
  var request = event.request;
  var last = request.uri.split('/').pop();
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

/**
 * CloudFront Function (viewer request, `/api/*` and `/ws`): names the viewer's IP in `x-atende-viewer-ip`, replacing
 * any value the caller sent, so the API can throttle logins per real client (it trusts the header only together with
 * the origin secret CloudFront adds).
 */
export const VIEWER_IP_CODE = `function handler(event) {
  var request = event.request;
  request.headers['x-atende-viewer-ip'] = { value: event.viewer.ip };
  return request;
}`;

export interface WebProps {
  /** `{apiId}.execute-api.{region}.amazonaws.com` of the HTTP API. */
  httpApiDomain: string;
  /** `{apiId}.execute-api.{region}.amazonaws.com` of the WebSocket API. */
  wsApiDomain: string;
  retainData: boolean;
  /** Headers CloudFront adds to every API origin request (the origin-verify secret). */
  originHeaders?: Record<string, string>;
}

/** WAF: requests per 5 minutes per IP to `/api/auth/*` before blocking. */
export const WAF_LOGIN_LIMIT_PER_5_MIN = 100;
/** WAF: requests per 5 minutes per IP to anything before blocking. */
export const WAF_API_LIMIT_PER_5_MIN = 5000;

/** The web bucket, the CloudFront distribution and the SPA upload. */
export class Web extends Construct {
  /** The CloudFront-scope rate-limit web ACL (created and attached only when deployed in us-east-1). */
  readonly webAcl: CfnWebACL;
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

    const securityHeaders = new ResponseHeadersPolicy(this, "SecurityHeaders", {
      comment: "Atende: CSP (token in localStorage), HSTS, nosniff, no framing, strict referrer",
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: CONTENT_SECURITY_POLICY, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
        xssProtection: { protection: true, modeBlock: true, override: true },
      },
    });

    const viewerIp = new CfFunction(this, "ViewerIp", {
      code: FunctionCode.fromInline(VIEWER_IP_CODE),
      runtime: FunctionRuntime.JS_2_0,
      comment: "Atende API: x-atende-viewer-ip from the viewer address",
    });

    const apiBehavior = (domain: string) => ({
      // The secret header tells the APIs a request came through CloudFront (the execute-api endpoints are public).
      origin: new HttpOrigin(domain, { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY, customHeaders: props.originHeaders }),
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // With caching off this forwards Authorization, cookies and the query string; Host stays the origin's.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: securityHeaders,
      compress: false,
      functionAssociations: [{ function: viewerIp, eventType: FunctionEventType.VIEWER_REQUEST }],
    });

    // WAF rate rules. A CloudFront-scope web ACL can only be created in us-east-1: the ACL exists (and is attached)
    // when the stack is deployed there; elsewhere the stage throttling (infra/lib/api.ts) and the app's login
    // throttle remain, and docs/deploy.md explains adding an ACL from a us-east-1 stack.
    const inUsEast1 = new CfnCondition(this, "WafRegion", { expression: Fn.conditionEquals(Aws.REGION, "us-east-1") });
    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName });
    this.webAcl = new CfnWebACL(this, "WebAcl", {
      scope: "CLOUDFRONT",
      defaultAction: { allow: {} },
      description: "Atende per-IP rate limits for login and the whole API",
      visibilityConfig: visibility("atende-web-acl"),
      rules: [
        {
          name: "login-rate",
          priority: 0,
          action: { block: {} },
          visibilityConfig: visibility("atende-login-rate"),
          statement: {
            rateBasedStatement: {
              limit: WAF_LOGIN_LIMIT_PER_5_MIN,
              aggregateKeyType: "IP",
              scopeDownStatement: {
                byteMatchStatement: {
                  fieldToMatch: { uriPath: {} },
                  positionalConstraint: "STARTS_WITH",
                  searchString: "/api/auth/",
                  textTransformations: [{ priority: 0, type: "LOWERCASE" }],
                },
              },
            },
          },
        },
        {
          name: "api-rate",
          priority: 1,
          action: { block: {} },
          visibilityConfig: visibility("atende-api-rate"),
          statement: { rateBasedStatement: { limit: WAF_API_LIMIT_PER_5_MIN, aggregateKeyType: "IP" } },
        },
      ],
    });
    this.webAcl.cfnOptions.condition = inUsEast1;
    const webAclId = Token.asString(Fn.conditionIf(inUsEast1.logicalId, this.webAcl.attrArn, Aws.NO_VALUE));

    const webOrigin = S3BucketOrigin.withOriginAccessControl(this.bucket);
    // The service worker and the manifest are never cached at the edge: a new service worker reaches browsers at
    // their next update check (docs/product/push.md#the-service-worker).
    const uncachedFile = {
      origin: webOrigin,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      responseHeadersPolicy: securityHeaders,
      compress: true,
    };
    this.distribution = new Distribution(this, "Distribution", {
      comment: "Atende: SPA, /api/* and /ws on one origin",
      defaultRootObject: "index.html",
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: "cloudfront/",
      webAclId,
      defaultBehavior: {
        origin: webOrigin,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: securityHeaders,
        compress: true,
        functionAssociations: [{ function: spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        "/api/*": apiBehavior(props.httpApiDomain),
        [`/${WS_STAGE}`]: apiBehavior(props.wsApiDomain),
        [`/${SERVICE_WORKER}`]: uncachedFile,
        [`/${WEB_MANIFEST}`]: uncachedFile,
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

    this.deployed = existsSync(path.join(WEB_DIST, "index.html"));
    if (this.deployed) {
      assertNoSandbox(WEB_DIST);
      const deployment = new BucketDeployment(this, "Deploy", {
        sources: [Source.asset(WEB_DIST)],
        // Uploaded below with their own type and caching (the prune of this deployment leaves excluded files alone).
        exclude: [SERVICE_WORKER, WEB_MANIFEST],
        destinationBucket: this.bucket,
        distribution: this.distribution,
        distributionPaths: ["/*"],
        memoryLimit: 512,
      });
      // The service worker and the manifest: their content types named, never cached by browsers' HTTP caches.
      for (const [id, file, contentType] of [
        ["DeployServiceWorker", SERVICE_WORKER, "text/javascript; charset=utf-8"],
        ["DeployManifest", WEB_MANIFEST, "application/manifest+json"],
      ] as const) {
        new BucketDeployment(this, id, {
          sources: [Source.asset(WEB_DIST, { exclude: ["*", `!${file}`] })],
          destinationBucket: this.bucket,
          prune: false,
          contentType,
          cacheControl: [CacheControl.noCache()],
          distribution: this.distribution,
          distributionPaths: [`/${file}`],
          memoryLimit: 512,
        });
      }
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
        "web/dist-cloud not found at synth: the web bucket is left empty. Run `npm run build:web:cloud` before deploying.",
      );
    }
  }
}
