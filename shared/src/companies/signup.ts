/**
 * Self-service sign-up (docs/product/companies.md#sign-up): `POST /api/companies/cadastro`, public.
 *
 * - Refused (403 `ERR_REGISTRATION_DISABLED`) while the platform's `allowregister` is not `enabled`.
 * - Throttled per IP ({@link SIGNUP_MAX_PER_IP}) and per email ({@link SIGNUP_MAX_PER_EMAIL}) in {@link SIGNUP_WINDOW_SECONDS}
 *   (429 `ERR_TOO_MANY_ATTEMPTS`), counted before anything else.
 * - The new company gets recurrence MENSAL, status on, campaigns enabled and a due date `trial` days from now (the
 *   platform's `trial` setting); its first admin (named after the company, with the email and password given), the
 *   default settings and the default business hours, all in one transaction.
 * - Whatever stops the creation once the body is valid (email already used, plan gone) answers the same 400
 *   `ERR_SIGNUP_FAILED` ('Erro ao criar usuário. Verifique os dados informados.'), so the page never tells whether an
 *   email has an account.
 */
import { AppError } from "../errors.ts";
import { readGlobalSetting } from "../settings/repository.ts";
import { countFormAttempt } from "../auth/throttle.ts";
import "./errors.ts";
import type { SignupBody } from "./schema.ts";
import { createCompany } from "./service.ts";

export const SIGNUP_MAX_PER_IP = 10;
export const SIGNUP_MAX_PER_EMAIL = 3;
export const SIGNUP_WINDOW_SECONDS = 3600;
const DAY_MS = 86_400_000;

/** See the module doc. Returns `{message}` only: nothing about the company or its user. */
export async function signup(body: SignupBody, ip: string): Promise<{ message: string }> {
  if ((await readGlobalSetting("allowregister")) !== "enabled") throw new AppError("ERR_REGISTRATION_DISABLED");
  await countFormAttempt("signup-ip", ip, SIGNUP_MAX_PER_IP, SIGNUP_WINDOW_SECONDS);
  await countFormAttempt("signup-email", body.email, SIGNUP_MAX_PER_EMAIL, SIGNUP_WINDOW_SECONDS);
  const trialDays = Number(await readGlobalSetting("trial")) || 3;
  try {
    await createCompany("system", {
      name: body.name,
      email: body.email,
      phone: body.phone,
      password: body.password,
      planId: body.planId,
      recurrence: "MENSAL",
      status: true,
      campaignsEnabled: true,
      dueDate: new Date(Date.now() + trialDays * DAY_MS).toISOString(),
    });
  } catch (err) {
    if (err instanceof AppError && ["ERR_EMAIL_ALREADY_EXISTS", "ERR_NO_PLAN_FOUND", "ERR_CONFLICT"].includes(err.code)) throw new AppError("ERR_SIGNUP_FAILED");
    throw err;
  }
  return { message: "Cadastro realizado com sucesso!" };
}
