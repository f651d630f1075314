/**
 * /users (docs/product/users.md, admin) on the kit's CRUD list page: search box (3+ characters, 500 ms
 * debounce), add button, table of id, online status, name, email, profile and actions; infinite scroll; live through
 * the `company-{id}-user` frames; delete after 'Deseja realmente excluir este registro?'. Emails wrap only before
 * "@" and ".".
 */
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { CrudListPage, useCrudList } from "../../ui/kit/index.ts";
import { useUserMutations, useUsersPages } from "./api.ts";
import type { User } from "./types.ts";
import { UserDialog } from "./UserDialog.tsx";

/**
 * An email that wraps only where a reader expects it: before the "@" and before each "." (never in the middle of a
 * name at 375 px).
 */
export function EmailText({ email }: { email: string }) {
  const parts = email.split(/(?=[@.])/);
  return (
    <span className="email-text">
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          <span>{p}</span>
        </Fragment>
      ))}
    </span>
  );
}

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
              <span className="sub-line show-narrow" data-testid="user-email-narrow">
                <EmailText email={u.email} />
              </span>
            </>
          ),
        },
        { label: t("users.email"), className: "hide-narrow", cellClassName: "cell-wrap", cell: (u) => <EmailText email={u.email} /> },
        { label: t("users.profile"), cell: (u) => t(`users.profiles.${u.profile}`, { defaultValue: u.profile }) },
      ]}
    >
      <UserDialog open={crud.page.open} user={crud.page.record} onClose={crud.page.close} />
    </CrudListPage>
  );
}
