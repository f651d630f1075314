/**
 * Texts of the public /forgetpsw page (`account.*`) and the errors of sign-up and password reset, in pt, en and es.
 * Spec texts are verbatim: 'Enviar Email', 'Redefinir Senha', 'Email enviado com sucesso!', 'Senha redefinida com
 * sucesso.', 'As senhas não correspondem', the password rule and 'Erro ao criar usuário. Verifique os dados informados.'.
 */
import { defineTexts } from "../../i18n/index.ts";

export const accountTexts = defineTexts({
  forgotTitle: ["Redefinir senha", "Reset password", "Restablecer contraseña"],
  email: ["Email", "Email", "Email"],
  sendEmail: ["Enviar Email", "Send Email", "Enviar Email"],
  emailSent: ["Email enviado com sucesso!", "Email sent successfully!", "¡Email enviado con éxito!"],
  code: ["Código de verificação", "Verification code", "Código de verificación"],
  newPassword: ["Nova senha", "New password", "Nueva contraseña"],
  confirmPassword: ["Confirme a senha", "Confirm the password", "Confirme la contraseña"],
  reset: ["Redefinir Senha", "Reset Password", "Restablecer Contraseña"],
  resetDone: ["Senha redefinida com sucesso.", "Password reset successfully.", "Contraseña restablecida con éxito."],
  mismatch: ["As senhas não correspondem", "The passwords do not match", "Las contraseñas no coinciden"],
  required: ["Campo obrigatório", "Required field", "Campo obligatorio"],
  rule: [
    "Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.",
    "Your password needs at least 8 characters, with an uppercase letter, a lowercase letter and a number.",
    "Su contraseña necesita al menos 8 caracteres, con una mayúscula, una minúscula y un número.",
  ],
  toSignup: ["Não tem uma conta? Cadastre-se!", "No account? Sign up!", "¿No tiene cuenta? ¡Regístrese!"],
  toLogin: ["Voltar ao login", "Back to login", "Volver al inicio de sesión"],
});

export const signupTexts = defineTexts({
  title: ["Cadastre sua empresa", "Register your company", "Registre su empresa"],
  name: ["Nome da empresa", "Company name", "Nombre de la empresa"],
  email: ["Email", "Email", "Email"],
  phone: ["Telefone com (DDD)", "Phone with area code", "Teléfono con código de área"],
  password: ["Senha", "Password", "Contraseña"],
  plan: ["Plano", "Plan", "Plan"],
  planPlaceholder: ["Selecione seu plano de assinatura", "Select your subscription plan", "Seleccione su plan de suscripción"],
  planOption: [
    "{{name}} - Atendentes: {{users}} - WhatsApp: {{connections}} - Filas: {{queues}} - {{value}}",
    "{{name}} - Agents: {{users}} - WhatsApp: {{connections}} - Queues: {{queues}} - {{value}}",
    "{{name}} - Agentes: {{users}} - WhatsApp: {{connections}} - Colas: {{queues}} - {{value}}",
  ],
  submit: ["Cadastrar", "Sign up", "Registrarse"],
  done: ["Cadastro realizado com sucesso! Faça seu login.", "Signed up! Log in now.", "¡Registro realizado! Inicie sesión."],
  toLogin: ["Já tem uma conta? Entre!", "Already have an account? Log in!", "¿Ya tiene cuenta? ¡Inicie sesión!"],
  required: ["Required", "Required", "Obligatorio"],
  tooShort: ["Too Short!", "Too Short!", "¡Muy corto!"],
  tooLong: ["Too Long!", "Too Long!", "¡Muy largo!"],
  invalidEmail: ["Invalid email", "Invalid email", "Email inválido"],
});

export const accountErrorTexts = defineTexts({
  ERR_REGISTRATION_DISABLED: ["O cadastro está desativado.", "Sign-up is disabled.", "El registro está desactivado."],
  ERR_SIGNUP_FAILED: ["Erro ao criar usuário. Verifique os dados informados.", "Could not create the user. Check the data you entered.", "Error al crear el usuario. Verifique los datos informados."],
  ERR_INVALID_RESET_CODE: ["Código inválido ou expirado.", "Invalid or expired code.", "Código inválido o vencido."],
  ERR_CANNOT_DELETE_OWN_COMPANY: ["Você não pode excluir a empresa em que está logado.", "You cannot delete the company you are logged into.", "No puede eliminar la empresa en la que ha iniciado sesión."],
});
