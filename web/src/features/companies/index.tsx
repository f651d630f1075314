/**
 * Companies (docs/product/companies.md): the super user's Empresas and Cadastrar Empresa tabs of /settings, through
 * the settings-tabs slot.
 */
import { lazyPart } from "../lazy.tsx";
import type { Feature } from "../types.ts";
import { companiesSettingsTexts, companiesTexts } from "./i18n.ts";

const load = () => import("./CompaniesTab.tsx");

export const companiesFeature: Feature = {
  id: "companies",
  routes: [],
  texts: { companies: companiesTexts, settings: companiesSettingsTexts },
  slots: {
    settingsTabs: [
      { id: "companies", order: 40, labelKey: "settings.tabCompanies", access: { permission: "routes:super" }, Component: lazyPart(load, "CompaniesTab") },
      { id: "newCompany", order: 50, labelKey: "settings.tabNewCompany", access: { permission: "routes:super" }, Component: lazyPart(load, "NewCompanyTab") },
    ],
  },
};
