/**
 * Companies data (docs/product/companies.md), for the super user's Empresas and Cadastrar Empresa tabs:
 * - `useCompanyPages(search)`: GET /api/companies?searchParam&pageNumber → pages of `{companies, count, hasMore}`;
 * - `companyCalls` (POST /api/companies, PUT /api/companies/{id}, DELETE /api/companies/{id} → the job removing it)
 *   run by `useCompanyMutations()`;
 * - `dueColour(dueDate)`: the row colouring ("+Vencimento" moves the due date with `@atende/shared/companies/recurrence`).
 */
import { differenceInCalendarDays } from "date-fns";
import { call, type BodyOf, type ResponseOf } from "../../api/operations.ts";
import { pagedCache, useCrudMutations, useNumberedPages, type CrudCalls } from "../../ui/kit/crud.ts";

export type Company = ResponseOf<"GET /api/companies/{id}">;
export type CompanyForm = BodyOf<"POST /api/companies">;

export const companiesCache = pagedCache<Company, "companies">({
  root: "companies",
  field: "companies",
  matches: (c, q) => !q || `${c.name} ${c.email} ${c.phone}`.toLowerCase().includes(q.toLowerCase()),
});

export const useCompanyPages = (search: string) => useNumberedPages(companiesCache, search, (query) => call("GET /api/companies", { query }));

export const companyCalls: CrudCalls<Company, CompanyForm> = {
  create: (form) => call("POST /api/companies", { body: form }),
  update: (id, form) => call("PUT /api/companies/{id}", { params: { id }, body: form }),
  remove: (id) => call("DELETE /api/companies/{id}", { params: { id } }),
};

export const useCompanyMutations = () => useCrudMutations(companyCalls, companiesCache);


/** The row colour: due in 1 to 5 days yellow, due today or past red, otherwise none. */
export function dueColour(dueDate: string | null, now = new Date()): "red" | "yellow" | undefined {
  if (!dueDate) return undefined;
  const days = differenceInCalendarDays(new Date(dueDate), now);
  if (days <= 0) return "red";
  if (days <= 5) return "yellow";
  return undefined;
}
