/**
 * Texts of the super user's Global tab (`platform.*`, `settings.tabGlobal`) in pt, en and es: sign-up allowed and
 * visible, trial days, and the IXC, MK-AUTH and ASAAS credentials.
 */
import { defineTexts } from "../../i18n/index.ts";

export const platformTexts = defineTexts({
  signup: ["Cadastro", "Sign-up", "Registro"],
  allowregister: ["Registro (Inscrição) Permitida?", "Registration allowed?", "¿Registro permitido?"],
  viewregister: ["Registro (Inscrição) Visível?", "Registration visible?", "¿Registro visible?"],
  trial: ["Tempo de Trial?", "Trial days?", "¿Días de prueba?"],
  trialDays: ["{{count}} dia(s)", "{{count}} day(s)", "{{count}} día(s)"],
  enabled: ["Habilitado", "Enabled", "Habilitado"],
  disabled: ["Desabilitado", "Disabled", "Deshabilitado"],
  integrations: ["Integrações", "Integrations", "Integraciones"],
  ipixc: ["IP do IXC", "IXC address", "Dirección de IXC"],
  tokenixc: ["Token do IXC", "IXC token", "Token de IXC"],
  ipmkauth: ["IP do MK-AUTH", "MK-AUTH address", "Dirección de MK-AUTH"],
  clientidmkauth: ["Client ID do MK-AUTH", "MK-AUTH client id", "Client ID de MK-AUTH"],
  clientsecretmkauth: ["Client Secret do MK-AUTH", "MK-AUTH client secret", "Client Secret de MK-AUTH"],
  asaas: ["Token do ASAAS", "ASAAS token", "Token de ASAAS"],
  credentialSet: ["Configurado: guardado cifrado. Digite um novo valor para trocar.", "Set: stored encrypted. Type a new value to replace it.", "Configurado: guardado cifrado. Escriba un nuevo valor para cambiarlo."],
  credentialUnset: ["Não configurado.", "Not set.", "No configurado."],
  save: ["Salvar", "Save", "Guardar"],
  clear: ["Remover", "Remove", "Quitar"],
  saved: ["Operação atualizada com sucesso.", "Operation updated successfully.", "Operación actualizada con éxito."],
});
export const platformSettingsTexts = defineTexts({ tabGlobal: ["Global", "Global", "Global"] });
