/**
 * Every environment variable the product reads, parsed once with zod (docs/architecture.md#2-one-machine-npm-start).
 *
 * Endpoints of AWS services are never configured here: the SDK reads `AWS_ENDPOINT_URL_<SERVICE>`
 * (DynamoDB Local, s3rver, fauxqs on one machine; nothing in the cloud). Only the API Gateway
 * management endpoint is ours to name, because a Lambda that is not WebSocket-invoked has no
 * `requestContext` to derive it from.
 */
import { z } from "zod";

const bool = z
  .enum(["true", "false", "1", "0", ""])
  .transform((v) => v === "true" || v === "1");

const ConfigSchema = z.object({
  /** Deployment stage: `local` on one machine, anything else in the cloud. */
  STAGE: z.string().default("local"),
  AWS_REGION: z.string().default("us-east-1"),
  /** The one DynamoDB table (docs/architecture.md#3-the-table). */
  TABLE_NAME: z.string().min(3).default("atende"),
  /** Private S3 bucket for media, logos and imports. */
  MEDIA_BUCKET: z.string().min(3).default("atende-media"),
  /** HS256 secret for access and refresh JWTs (local). In the cloud `JWT_SECRET_ARN` names a Secrets Manager secret. */
  JWT_SECRET: z.string().min(16).optional(),
  JWT_SECRET_ARN: z.string().optional(),
  /**
   * Key of the connections' API tokens at rest (AES-256-GCM; `whatsapp/token.ts`): any string, or in the cloud the
   * Secrets Manager secret `CONNECTION_TOKEN_KEY_ARN` names. Unset locally: derived from `JWT_SECRET`.
   */
  CONNECTION_TOKEN_KEY: z.string().min(16).optional(),
  CONNECTION_TOKEN_KEY_ARN: z.string().optional(),
  /**
   * One machine only: the host the speech SDK speaks to for an AI prompt's voice replies instead of the provider's
   * host of the prompt's `voiceRegion` (the local stand-in's `ws://127.0.0.1:<port>`). Ignored in the cloud.
   */
  SPEECH_HOST: z.string().url().optional(),
  /**
   * How long one call to a bot's provider may take, connection and answer included (ms; default 30 s): the AI
   * provider (chat, transcription, speech), Typebot, an n8n or webhook flow, Dialogflow. Past it the call fails and
   * the ticket is handed to people with a note (docs/product/prompts.md, docs/product/integrations.md).
   */
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /** Access token lifetime in seconds (default 15 min). */
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(900),
  /** Refresh token lifetime in seconds (default 7 days). */
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(7 * 24 * 3600),
  /** `https://<apiId>.execute-api.<region>.amazonaws.com/<stage>` or the local emulator's `http://127.0.0.1:<port>/@ws`. */
  WS_MANAGEMENT_ENDPOINT: z.string().url().optional(),
  /** Base URL of the session-command FIFO queues; shard n is `${SESSION_COMMANDS_QUEUE_PREFIX}-<n>.fifo`. */
  SESSION_COMMANDS_QUEUE_URL_PREFIX: z.string().optional(),
  /** Number of session shards (docs/architecture.md#7-the-session-runner-session-runner). */
  SESSION_SHARDS: z.coerce.number().int().min(1).max(64).default(16),
  /**
   * Shards of every due index (outbox, outbound pending, timers) new items are written to; unset = each index's
   * default (`db/keys.ts` `DUE_INDEX_SHARDS`). Raise it when the platform's due writes near the ceiling
   * (docs/architecture.md §3 "Due indexes and their ceiling").
   */
  DUE_SHARDS: z.coerce.number().int().min(1).max(256).optional(),
  /** The largest shard count ever used before `DUE_SHARDS` (only needed after lowering it): readers keep reading that many. */
  DUE_SHARDS_PREVIOUS: z.coerce.number().int().min(1).max(256).optional(),
  /** Most session shards one runner task holds (tasks share the shards fairly); unset = every shard. */
  RUNNER_MAX_SHARDS: z.coerce.number().int().min(1).max(64).optional(),
  /** File the runner touches on every lease tick; the container health check reads its age. */
  RUNNER_HEARTBEAT_FILE: z.string().optional(),
  /** The background jobs queue (`jobs/`: deleting a tag from every ticket, closing every ticket of a tab). */
  JOBS_QUEUE_URL: z.string().optional(),
  /** Campaign and schedule dispatch queue URL. */
  DISPATCH_QUEUE_URL: z.string().optional(),
  /** Company webhooks' delivery queue (`webhooks/`: one message per attempt). */
  WEBHOOKS_QUEUE_URL: z.string().optional(),
  /** Push notifications' queue (`push/`: one fan-out per pushed fact, one retry per device whose push service failed). */
  PUSH_QUEUE_URL: z.string().optional(),
  /**
   * The VAPID key pair pushes are signed with (docs/product/push.md#keys), base64url: on one machine kept in the data
   * folder; in the cloud the Secrets Manager secret `VAPID_KEYS_ARN` names holds `{"publicKey","privateKey"}`.
   */
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  VAPID_KEYS_ARN: z.string().optional(),
  /** The contact push services may use about our pushes (VAPID `sub`): a `mailto:` or https URL. */
  VAPID_SUBJECT: z.string().default("mailto:no-reply@atende.local"),
  /**
   * The sender of the platform's emails (password-reset codes): an address of the SES identity the stack manages
   * (`infra/lib/mail.ts`); on one machine any address (the local SES emulator accepts everything).
   */
  MAIL_FROM: z.string().email().default("no-reply@atende.local"),
  /** The SES configuration set the emails are sent through (cloud); unset on one machine. */
  MAIL_CONFIGURATION_SET: z.string().optional(),
  /** Dialogflow ES REST endpoint (the integrations' detect intent); tests point it at a local stand-in. */
  DIALOGFLOW_API_URL: z.string().url().default("https://dialogflow.googleapis.com"),
  /** `simulator` (local default) or `baileys`. */
  WA_PROVIDER: z.enum(["simulator", "baileys"]).default("simulator"),
  /** Throttle: login attempts allowed per (email, IP) pair inside the window; past it the email is also slowed down. */
  LOGIN_MAX_ATTEMPTS: z.coerce.number().int().positive().default(10),
  /** Throttle: failed login attempts allowed per IP inside the window, whatever the emails (an office behind one NAT). */
  LOGIN_MAX_ATTEMPTS_PER_IP: z.coerce.number().int().positive().default(100),
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().positive().default(300),
  /** Public messages API: requests one connection token may make per window (then 429 with `Retry-After`). */
  MESSAGES_API_RATE_LIMIT: z.coerce.number().int().positive().default(60),
  /** Public messages API: the rate window, in seconds. */
  MESSAGES_API_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  /**
   * Cloud: the value CloudFront puts in `x-atende-origin` on every API request. Only a request carrying it may name
   * the client IP (`x-atende-viewer-ip`, set by a CloudFront Function from the viewer's address); any other request
   * is counted by the source IP API Gateway saw. Unset locally.
   */
  ORIGIN_VERIFY_SECRET: z.string().min(16).optional(),
  /** Cloud: the KMS key that seals the integration credentials at rest (`settings/sealed.ts`); unset locally. */
  SETTINGS_KMS_KEY_ID: z.string().optional(),
  /** The platform's Pix key: every invoice's BR Code pays into it (docs/product/invoices.md#pix). */
  PIX_KEY: z.string().min(1).max(77).default("financeiro@atende.local"),
  /** Merchant name and city of the BR Code (upper case ASCII in the code; at most 25 and 15 characters). */
  PIX_MERCHANT_NAME: z.string().min(1).default("Atende"),
  PIX_MERCHANT_CITY: z.string().min(1).default("Sao Paulo"),
  /**
   * The Pix provider that makes the charges and confirms them by webhook: `none` (the BR Code is built here; the
   * super user marks invoices paid, or on one machine the sandbox pays them) or `efi` (Efí's Pix API, `EFI_*`).
   */
  PIX_PROVIDER: z.enum(["none", "efi"]).default("none"),
  /** Base URL of Efí's Pix API (production `https://pix.api.efipay.com.br`, homologation `https://pix-h.api.efipay.com.br`). */
  EFI_API_URL: z.string().url().default("https://pix-h.api.efipay.com.br"),
  EFI_CLIENT_ID: z.string().optional(),
  EFI_CLIENT_SECRET: z.string().optional(),
  /** Efí's client certificate (PKCS#12, base64) for the mutual TLS its Pix API asks for. */
  EFI_CERTIFICATE_BASE64: z.string().optional(),
  /** The secret of the Pix confirmation webhook (`POST /api/pix/webhook?hmac=<secret>`); unset: every confirmation is refused. */
  PIX_WEBHOOK_SECRET: z.string().min(16).optional(),
  /** Structured logs off in tests. */
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  SECURE_COOKIES: bool.optional(),
});

export type Config = z.infer<typeof ConfigSchema>;

let cached: Config | undefined;

/** Returns the parsed configuration (parsed on first call). Throws a ZodError naming the bad variable. */
export function getConfig(): Config {
  cached ??= ConfigSchema.parse(process.env);
  return cached;
}

/** Forgets the parsed configuration so the next {@link getConfig} re-reads `process.env` (tests and the local stack only). */
export function resetConfig(): void {
  cached = undefined;
}
