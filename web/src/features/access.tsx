/**
 * THE access rule of the web's pages and menu (docs/product/users.md#profiles-and-rights): a feature declares its
 * `Access` (a permission, super flag, plan flag) in its `index.tsx`;
 * `mayAccess` decides with the shared permission table (`can` of `@atende/shared/access/permissions`, the one the
 * server reads), the side menu hides what it refuses and `RequireAccess` guards the routes:
 * - a refused permission goes to "/" at once with the no-permission toast (the translated text of
 *   `ERR_NO_PERMISSION`; e.g. an agent typing /users, /queues or /connections);
 * - a missing plan flag, or a page for super users only, shows 'Esta empresa não possui permissão para acessar essa
 *   página! Estamos lhe redirecionando.' and goes to "/" after {@link NO_PERMISSION_REDIRECT_MS}.
 */
import { can } from "@atende/shared/access/permissions";
import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate } from "react-router-dom";
import { usePlanFlags, type PlanFlags } from "../api/company.ts";
import { registerTexts } from "../i18n/index.ts";
import { useSession, type SessionUser } from "../api/session.ts";
import { PageState } from "../ui/PageState.tsx";
import { useToast } from "../ui/Toast.tsx";
import type { Access } from "./types.ts";

const noPermission = "Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.";
registerTexts("access", {
  pt: { noPermission },
  en: { noPermission: "This company is not allowed to access this page! Redirecting you." },
  es: { noPermission: "¡Esta empresa no tiene permiso para acceder a esta página! Le estamos redirigiendo." },
});

/** Delay before a page the plan does not allow sends the user to "/" (the product's redirect delay, 1 s), in ms. */
export const NO_PERMISSION_REDIRECT_MS = 1000;

/** Why a user may not open a page: its profile lacks the permission, or the plan / super flag (answered with a toast). */
export type Refusal = "profile" | "plan";

/** Null when `user` may open a page with `access` under the plan `flags`; else why not. */
export function refusal(user: Pick<SessionUser, "profile" | "super">, access: Access | undefined, flags: PlanFlags | undefined): Refusal | null {
  if (!access) return null;
  if (access.permission && !can(user, access.permission)) return "profile";
  if (access.super && !can(user, "routes:super")) return "plan";
  if (access.planFlag && !flags?.[access.planFlag]) return "plan";
  return null;
}

/** True when `user` may open a page with `access` (and see its menu entry). */
export function mayAccess(user: Pick<SessionUser, "profile" | "super">, access: Access | undefined, flags: PlanFlags | undefined): boolean {
  return refusal(user, access, flags) === null;
}

/** Renders `children` only for a user `access` allows; otherwise sends them to "/" as described above. */
export function RequireAccess({ access, children }: { access: Access | undefined; children: ReactNode }) {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const user = useSession()!.user;
  const plan = usePlanFlags(access?.planFlag ? user.companyId : undefined);
  const waiting = !!access?.planFlag && plan.isPending;
  const why = waiting ? null : refusal(user, access, plan.data);
  useEffect(() => {
    if (why === "profile") toast.error(t("errors.ERR_NO_PERMISSION"));
    if (why !== "plan") return;
    toast.error(t("access.noPermission"));
    const id = setTimeout(() => navigate("/", { replace: true }), NO_PERMISSION_REDIRECT_MS);
    return () => clearTimeout(id);
  }, [why]); // eslint-disable-line react-hooks/exhaustive-deps
  if (waiting) return <PageState loading empty={false}>{null}</PageState>;
  if (why === "profile") return <Navigate to="/" replace />;
  if (why === "plan") return null;
  return <>{children}</>;
}
