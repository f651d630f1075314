/** The Logo tab's texts (pt, en, es). */
import { defineTexts } from "../../i18n/index.ts";

export const logosTexts = defineTexts({
  title: ["Logos da plataforma", "Platform logos", "Logos de la plataforma"],
  intro: [
    "PNG, ICO ou SVG, até 1 MB. As páginas de login e de cadastro, o menu e o favicon têm uma versão para o tema claro e outra para o escuro.",
    "PNG, ICO or SVG, up to 1 MB. The login and sign-up pages, the menu and the favicon each have a light-theme and a dark-theme version.",
    "PNG, ICO o SVG, hasta 1 MB. Las páginas de inicio de sesión y de registro, el menú y el favicon tienen una versión para el tema claro y otra para el oscuro.",
  ],
  destination: ["Destino", "Place", "Destino"],
  choose: ["Selecione o destino", "Choose the place", "Seleccione el destino"],
  file: ["Arquivo", "File", "Archivo"],
  pick: ["Escolher arquivo", "Choose file", "Elegir archivo"],
  none: ["Nenhum arquivo escolhido", "No file chosen", "Ningún archivo elegido"],
  send: ["Enviar", "Upload", "Enviar"],
  sent: ["Arquivo enviado com sucesso!", "File uploaded!", "¡Archivo enviado con éxito!"],
  noFile: ["Escolha um arquivo!", "Choose a file!", "¡Elija un archivo!"],
  noDestination: ["Escolha um destino!", "Choose a place!", "¡Elija un destino!"],
  wrongType: ["Use somente arquivos em formato PNG, ICO ou SVG!", "Use only PNG, ICO or SVG files!", "¡Use solo archivos PNG, ICO o SVG!"],
  current: ["Logos atuais", "Current logos", "Logos actuales"],
  empty: ["Nenhum logo enviado: a plataforma usa o seu próprio.", "No logo uploaded: the platform's own is used.", "Ningún logo enviado: se usa el de la plataforma."],
  loading: ["Carregando…", "Loading…", "Cargando…"],
  noPermission: ["Sem permissão para acessar!", "No permission to access!", "¡Sin permiso para acceder!"],
  ref: {
    login: ["Página de login (claro)", "Login page (light)", "Página de inicio de sesión (claro)"],
    "login-dark": ["Página de login (escuro)", "Login page (dark)", "Página de inicio de sesión (oscuro)"],
    interno: ["Menu (claro)", "Menu (light)", "Menú (claro)"],
    "interno-dark": ["Menu (escuro)", "Menu (dark)", "Menú (oscuro)"],
    favicon: ["Favicon (claro)", "Favicon (light)", "Favicon (claro)"],
    "favicon-dark": ["Favicon (escuro)", "Favicon (dark)", "Favicon (oscuro)"],
    signup: ["Página de cadastro (claro)", "Sign-up page (light)", "Página de registro (claro)"],
    "signup-dark": ["Página de cadastro (escuro)", "Sign-up page (dark)", "Página de registro (oscuro)"],
    "favicon-256x256": ["Favicon 256×256", "Favicon 256×256", "Favicon 256×256"],
    "apple-touch-icon": ["Ícone da tela inicial (apple-touch-icon)", "Home-screen icon (apple-touch-icon)", "Icono de pantalla de inicio (apple-touch-icon)"],
  },
});

export const logosSettingsTexts = defineTexts({
  tabLogo: ["Logo", "Logo", "Logo"],
});
