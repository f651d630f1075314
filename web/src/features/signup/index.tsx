/**
 * Public account pages (docs/product/companies.md): /signup (the company sign-up) and /forgetpsw (the password reset
 * by mailed code). The login page shows their links once these public routes exist ('Cadastre-se!' also needs the
 * platform's `viewregister` and `allowregister`).
 */
import type { Feature } from "../types.ts";
import { lazyPage } from "../lazy.tsx";
import { accountErrorTexts, accountTexts, signupTexts } from "./i18n.ts";

const SignupPage = lazyPage(() => import("./SignupPage.tsx"), "SignupPage");
const ForgotPasswordPage = lazyPage(() => import("./ForgotPasswordPage.tsx"), "ForgotPasswordPage");

export const accountFeature: Feature = {
  id: "account",
  routes: [],
  publicRoutes: [
    { path: "/signup", element: <SignupPage /> },
    { path: "/forgetpsw", element: <ForgotPasswordPage /> },
  ],
  texts: { account: accountTexts, signup: signupTexts, errors: accountErrorTexts },
};
