/**
 * Sandbox phone area: `/sandbox`, a public route (the customer's side needs no agent login) shown only in local builds:
 * `VITE_SANDBOX=false` (the CDK web build) leaves it out of the bundle's routes; the server side is gated too, as the
 * `/sim` endpoints exist only in the local stack.
 */
import "../tickets/attendance.css";
import "../tickets/i18n.ts";
import "./i18n.ts";
import { ADMIN_ONLY, type Feature } from "../types.ts";
import { lazyPage } from "../lazy.tsx";

const SandboxPage = lazyPage(() => import("./SandboxPage.tsx"), "SandboxPage");

/** True in local builds; the cloud build sets `VITE_SANDBOX=false`. */
export const SANDBOX_ENABLED = import.meta.env.VITE_SANDBOX !== "false";

export const sandboxFeature: Feature | null = SANDBOX_ENABLED
  ? {
      id: "sandbox",
      routes: [],
      publicRoutes: [{ path: "/sandbox", element: <SandboxPage /> }],
      access: ADMIN_ONLY,
      menu: { path: "/sandbox", labelKey: "menu.sandbox", group: "administration", order: 90, newTab: true },
    }
  : null;
