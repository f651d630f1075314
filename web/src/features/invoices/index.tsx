/**
 * Invoices (docs/product/invoices.md): /financeiro (the company's invoices, PAGAR → the checkout and its Pix screen)
 * and /subscription (trial days left, billing email, 'Assine Agora!'), for admins. `company-{id}-payment` frames
 * refresh the list and reach the checkout waiting on its Pix screen.
 */
import type { RealtimeHandler } from "../../realtime/handlers.ts";
import { lazyPage } from "../lazy.tsx";
import { ADMIN_ONLY, type Feature } from "../types.ts";
import { invoicesPages, PAYMENT_EVENT, paymentEvents } from "./api.ts";
import { invoicesErrorTexts, invoicesMenuTexts, invoicesTexts } from "./i18n.ts";
import "./invoices.css";

const InvoicesPage = lazyPage(() => import("./InvoicesPage.tsx"), "InvoicesPage");
const SubscriptionPage = lazyPage(() => import("./SubscriptionPage.tsx"), "SubscriptionPage");

const onPayment: RealtimeHandler<"payment"> = (data, { queryClient }) => {
  invoicesPages.reload(queryClient);
  void queryClient.invalidateQueries({ queryKey: ["invoices", "company"] });
  paymentEvents.dispatchEvent(new CustomEvent(PAYMENT_EVENT, { detail: data }));
};

export const invoicesFeature: Feature = {
  id: "invoices",
  access: ADMIN_ONLY,
  routes: [
    { path: "/financeiro", element: <InvoicesPage /> },
    { path: "/subscription", element: <SubscriptionPage /> },
  ],
  menu: { path: "/financeiro", labelKey: "menu.financeiro", group: "administration", order: 60 },
  texts: { invoices: invoicesTexts, menu: invoicesMenuTexts, errors: invoicesErrorTexts },
  realtime: { payment: onPayment },
};
