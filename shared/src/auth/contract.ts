/**
 * Auth operations (docs/product/users.md#sessions): login, refresh-token rotation, logout, me, version.
 * The refresh token travels only in the httpOnly `jrt` cookie, never in a body.
 */
import { z } from "zod";
import { defineRoutes, MessageReply, NoContent } from "../contract.ts";
import { ForgotPasswordBody, ResetPasswordBody } from "./reset-schema.ts";
import { PublicUser } from "../users/contract.ts";

/** POST /api/auth/login body. */
export const LoginBody = z.object({
  email: z.string().trim().min(1, "Required").max(200),
  password: z.string().min(1, "Required").max(200),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** The logged-in user as login, refresh and me return it: the public user plus a summary of their company. */
export const SessionUser = PublicUser.extend({
  company: z.object({
    id: z.number().int(),
    name: z.string(),
    dueDate: z.string().nullable(),
    settings: z.array(z.object({ key: z.string(), value: z.string() })),
  }),
});

/** Login and refresh answer: the access token, the user, and the days left when under the warning threshold. */
export const SessionReply = z.object({ token: z.string(), user: SessionUser, dueDateWarningDays: z.number().int().optional() });

export const authRoutes = defineRoutes("auth", {
  "POST /api/auth/login": { auth: "public", body: LoginBody, response: SessionReply },
  "POST /api/auth/refresh_token": { auth: "public", response: SessionReply },
  "DELETE /api/auth/logout": { auth: "public", response: NoContent },
  "GET /api/auth/me": { auth: "user", response: SessionUser },
  /** A single-use ticket (60 s) the browser presents on the WebSocket `$connect` instead of its access token. */
  "POST /api/auth/ws-ticket": { auth: "user", response: z.object({ ticket: z.string(), expiresInSeconds: z.number().int() }) },
  "GET /api/version": { auth: "public", response: z.object({ version: z.string() }) },
  /** Password reset (docs/product/companies.md#password-reset): the same answer whether or not the email exists. */
  "POST /api/auth/forgot-password": { auth: "public", body: ForgotPasswordBody, response: MessageReply },
  "POST /api/auth/reset-password": { auth: "public", body: ResetPasswordBody, response: MessageReply },
});
