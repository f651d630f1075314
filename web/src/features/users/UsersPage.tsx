/**
 * /users (docs/product/users.md, admin) on the kit's CRUD list page: search box (3+ characters, 500 ms
 * debounce), add button, table of id, online status, name, email, profile and actions; infinite scroll; live through
 * the `company-{id}-user` frames; delete after 'Deseja realmente excluir este registro?'.
 */
import { useTranslation } from "react-i18next";
import { CrudListPage, useCrudList } from "../../ui/kit/index.ts";
import { useUserMutations, useUsersPages } from "./api.ts";
import type { User } from "./types.ts";
import { UserDialog } from "./UserDialog.tsx";

export function UsersPage() {
  const { t } = useTranslation();
  const crud = useCrudList<User, "users">("users", useUsersPages, "users", useUserMutations().remove);
  return (
    <CrudListPage
      ns="users"
      entity="user"
      {...crud}
      columns={[
        { label: t("users.id"), className: "col-id", cell: (u) => u.id },
        {
          label: t("users.status"),
          cell: (u) => (
            <>
              <span className={`status-dot ${u.online ? "online" : ""}`} aria-hidden="true" />
              <span className="status-label">{u.online ? t("users.online") : t("users.offline")}</span>
            </>
          ),
        },
        {
          label: t("users.name"),
          cell: (u) => (
            <>
              {u.name}
              <span className="sub-line show-narrow">{u.email}</span>
            </>
          ),
        },
        { label: t("users.email"), className: "hide-narrow", cellClassName: "cell-wrap", cell: (u) => u.email },
        { label: t("users.profile"), cell: (u) => t(`users.profiles.${u.profile}`, { defaultValue: u.profile }) },
      ]}
    >
      <UserDialog open={crud.page.open} user={crud.page.record} onClose={crud.page.close} />
    </CrudListPage>
  );
}
