/** The password-reset form's bodies (docs/product/companies.md#password-reset), pure zod so the web and the contract share them. */
import { z } from "zod";

/** The reset form's password rule and its message. */
export const PASSWORD_RULE_MESSAGE = "Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.";
/** A new password: at least 8 characters with an uppercase letter, a lowercase letter and a digit. */
export const StrongPassword = z
  .string()
  .min(1, "Campo obrigatório")
  .max(50)
  .regex(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{8,}$/, PASSWORD_RULE_MESSAGE);

export const ForgotPasswordBody = z.object({ email: z.string().trim().min(1, "Required").email("Invalid email").max(200) });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;

export const ResetPasswordBody = z
  .object({
    email: z.string().trim().min(1, "Required").email("Invalid email").max(200),
    token: z.string().trim().regex(/^\d{6}$/, "Invalid code"),
    newPassword: StrongPassword,
    confirmPassword: z.string().min(1, "Campo obrigatório").max(50),
  })
  .refine((b) => b.newPassword === b.confirmPassword, { path: ["confirmPassword"], message: "As senhas não correspondem" });
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

