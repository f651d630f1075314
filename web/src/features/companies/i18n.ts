/** Texts of the super user's Empresas and Cadastrar Empresa tabs (`companies.*`, `settings.tabCompanies|tabNewCompany`) in pt, en and es. */
import { defineTexts } from "../../i18n/index.ts";

export const companiesTexts = defineTexts({
  title: ["Empresas", "Companies", "Empresas"],
  count: ["{{count}} empresa(s)", "{{count}} company(ies)", "{{count}} empresa(s)"],
  searchPlaceholder: ["Pesquisar por nome, email ou telefone", "Search by name, email or phone", "Buscar por nombre, email o teléfono"],
  add: ["Cadastrar Empresa", "Add company", "Registrar empresa"],
  addTitle: ["Cadastrar Empresa", "New company", "Nueva empresa"],
  editTitle: ["Editar empresa", "Edit company", "Editar empresa"],
  saved: ["Operação realizada com sucesso!", "Done!", "¡Operación realizada con éxito!"],
  deleted: ["Exclusão da empresa iniciada.", "Company deletion started.", "Eliminación de la empresa iniciada."],
  empty: ["Nenhuma empresa encontrada.", "No companies found.", "No se encontraron empresas."],
  name: ["Nome", "Name", "Nombre"],
  email: ["Email", "Email", "Email"],
  phone: ["Telefone", "Phone", "Teléfono"],
  password: ["Senha do administrador", "Admin password", "Contraseña del administrador"],
  plan: ["Plano", "Plan", "Plan"],
  choosePlan: ["Selecione o plano", "Choose the plan", "Seleccione el plan"],
  status: ["Ativa", "Active", "Activa"],
  active: ["Sim", "Yes", "Sí"],
  inactive: ["Não", "No", "No"],
  campaignsEnabled: ["Campanhas", "Campaigns", "Campañas"],
  dueDate: ["Vencimento", "Due date", "Vencimiento"],
  recurrence: ["Recorrência", "Recurrence", "Recurrencia"],
  recurrences: {
    MENSAL: ["Mensal", "Monthly", "Mensual"],
    BIMESTRAL: ["Bimestral", "Every 2 months", "Bimestral"],
    TRIMESTRAL: ["Trimestral", "Quarterly", "Trimestral"],
    SEMESTRAL: ["Semestral", "Every 6 months", "Semestral"],
    ANUAL: ["Anual", "Yearly", "Anual"],
  },
  extend: ["+Vencimento", "+Due date", "+Vencimiento"],
  extendHint: ["Adiciona {{months}} mês(es) ao vencimento", "Adds {{months}} month(s) to the due date", "Agrega {{months}} mes(es) al vencimiento"],
  extended: ["Novo vencimento: {{date}}", "New due date: {{date}}", "Nuevo vencimiento: {{date}}"],
  billing: ["Dados de cobrança", "Billing details", "Datos de facturación"],
  billingName: ["Nome para cobrança", "Billing name", "Nombre de facturación"],
  addressZipCode: ["CEP", "Zip code", "Código postal"],
  addressStreet: ["Endereço", "Street", "Dirección"],
  addressState: ["Estado", "State", "Estado"],
  addressCity: ["Cidade", "City", "Ciudad"],
  addressDistrict: ["Bairro", "District", "Barrio"],
  newHint: ["Cadastre uma empresa com o seu primeiro administrador.", "Register a company with its first administrator.", "Registre una empresa con su primer administrador."],
});

export const companiesSettingsTexts = defineTexts({
  tabCompanies: ["Empresas", "Companies", "Empresas"],
  tabNewCompany: ["Cadastrar Empresa", "New company", "Registrar empresa"],
});
