/**
 * Password reset (docs/product/companies.md#password-reset), two steps:
 *
 * - `requestPasswordReset(email, ip)`: throttled per IP and per email; the answer is the same whether or not the
 *   email belongs to a user. For a user, a 6-digit code (stored only as its SHA-256) valid {@link RESET_CODE_TTL_SECONDS}
 *   is mailed (a new request replaces the old code).
 * - `resetPassword(body, ip)`: the code, the new password (at least 8 characters with an uppercase letter, a lowercase
 *   letter and a digit) and its confirmation. A wrong code counts an attempt; after {@link RESET_MAX_ATTEMPTS} wrong
 *   ones, or past its expiry, the code is gone (400 `ERR_INVALID_RESET_CODE`, as for an unknown email). Success
 *   stores the new hash, consumes the code and revokes every session of the user (token version bump: access and
 *   refresh tokens and open sockets stop working).
 */
import { createHash, randomInt } from "node:crypto";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { sendMail } from "../mail/send.ts";
import { getEmailOwner, getUser, updateUserFields } from "../users/repository.ts";
import { hashPassword } from "../users/service.ts";
import "../companies/errors.ts";
import { consumeResetCode, countResetAttempt, getResetCode, putResetCode } from "./repository.ts";
import { revokeSessions } from "./service.ts";
import { countFormAttempt } from "./throttle.ts";
import type { ForgotPasswordBody, ResetPasswordBody } from "./reset-schema.ts";

/** How long a mailed code works, in seconds (15 min). */
export const RESET_CODE_TTL_SECONDS = 15 * 60;
/** Wrong codes accepted before the code is dropped. */
export const RESET_MAX_ATTEMPTS = 5;
/** Requests per email, and per IP, in {@link RESET_WINDOW_SECONDS}. */
export const RESET_MAX_REQUESTS_PER_EMAIL = 3;
export const RESET_MAX_REQUESTS_PER_IP = 20;
export const RESET_WINDOW_SECONDS = 3600;

const hashCode = (email: string, code: string) => createHash("sha256").update(`${email.trim().toLowerCase()}:${code}`).digest("hex");

/** `POST /api/auth/forgot-password`: see the module doc. Always `{message: "Email enviado com sucesso!"}` unless throttled (429). */
export async function requestPasswordReset(body: ForgotPasswordBody, ip: string): Promise<{ message: string }> {
  await countFormAttempt("reset-ip", ip, RESET_MAX_REQUESTS_PER_IP, RESET_WINDOW_SECONDS);
  await countFormAttempt("reset-email", body.email, RESET_MAX_REQUESTS_PER_EMAIL, RESET_WINDOW_SECONDS);
  const owner = await getEmailOwner(body.email);
  if (owner) {
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    await putResetCode({ email: body.email.toLowerCase(), codeHash: hashCode(body.email, code), expiresAt: Math.floor(Date.now() / 1000) + RESET_CODE_TTL_SECONDS, attempts: 0 });
    try {
      await sendMail({
        to: body.email,
        subject: "Atende: código para redefinir sua senha",
        text: `Seu código para redefinir a senha é ${code}.\n\nEle vale por ${RESET_CODE_TTL_SECONDS / 60} minutos. Se você não pediu, ignore este email.`,
      });
    } catch (err) {
      log("error", "password reset: the email could not be sent", { err }); // the answer stays the same
    }
  }
  return { message: "Email enviado com sucesso!" };
}

/** `POST /api/auth/reset-password`: see the module doc. `{message: "Senha redefinida com sucesso."}`. */
export async function resetPassword(body: ResetPasswordBody, ip: string): Promise<{ message: string }> {
  await countFormAttempt("reset-code-ip", ip, RESET_MAX_REQUESTS_PER_IP * RESET_MAX_ATTEMPTS, RESET_WINDOW_SECONDS);
  const pending = await getResetCode(body.email);
  if (!pending || pending.expiresAt * 1000 <= Date.now() || pending.attempts >= RESET_MAX_ATTEMPTS) throw new AppError("ERR_INVALID_RESET_CODE");
  if (pending.codeHash !== hashCode(body.email, body.token)) {
    await countResetAttempt(body.email, pending.codeHash);
    throw new AppError("ERR_INVALID_RESET_CODE");
  }
  const owner = await getEmailOwner(body.email);
  const user = owner ? await getUser(owner.companyId, owner.userId) : undefined;
  if (!user || !(await consumeResetCode(body.email, pending.codeHash))) throw new AppError("ERR_INVALID_RESET_CODE");
  await updateUserFields(user, { passwordHash: await hashPassword(body.newPassword) });
  await revokeSessions(user);
  return { message: "Senha redefinida com sucesso." };
}
