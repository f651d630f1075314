/**
 * /users (attendance.md §2 Users page, admin) on the kit's list page: search box (3+ characters, 500 ms debounce),
 * add button, table of id, online status, name, email, profile and actions; infinite scroll; live through the
 * `company-{id}-user` frames; delete after 'Deseja realmente excluir este registro?'.
 */
import { Button, TableCell, TableRow } from "@aws-amplify/ui-react";
import { useTranslation } from "react-i18next";
import { fromPages, ListPage, RowActions, useCrudPage, useListSearch } from "../../ui/kit/index.ts";
import { useUserMutations, useUsersPages } from "./api.ts";
import type { User } from "./types.ts";
import { UserDialog } from "./UserDialog.tsx";

export function UsersPage() {
  const { t } = useTranslation();
  const search = useListSearch();
  const list = fromPages(useUsersPages(search.term), "users");
  const { remove } = useUserMutations();
  const page = useCrudPage<User>(remove, t("users.deleted"));

  return (
    <ListPage
      id="users"
      title={t("users.title")}
      countText={list.count === undefined ? undefined : t("users.count", { count: list.count })}
      search={search}
      searchPlaceholder={t("users.searchPlaceholder")}
      tools={
        <Button variation="primary" size="small" onClick={() => page.add()}>
          {t("users.add")}
        </Button>
      }
      list={list}
      columns={[
        { label: t("users.id"), className: "col-id" },
        { label: t("users.status") },
        { label: t("users.name") },
        { label: t("users.email"), className: "hide-narrow" },
        { label: t("users.profile") },
        { label: t("common.actions"), className: "col-actions" },
      ]}
      row={(u) => (
        <TableRow key={u.id} data-testid="user-row">
          <TableCell className="col-id">{u.id}</TableCell>
          <TableCell>
            <span className={`status-dot ${u.online ? "online" : ""}`} aria-hidden="true" />
            <span className="status-label">{u.online ? t("users.online") : t("users.offline")}</span>
          </TableCell>
          <TableCell>
            {u.name}
            <span className="sub-line show-narrow">{u.email}</span>
          </TableCell>
          <TableCell className="cell-wrap hide-narrow">{u.email}</TableCell>
          <TableCell>{t(`users.profiles.${u.profile}`, { defaultValue: u.profile })}</TableCell>
          <TableCell className="col-actions">
            <RowActions name={u.name} onEdit={() => page.edit(u)} onDelete={() => page.ask(u)} testIdPrefix="user" />
          </TableCell>
        </TableRow>
      )}
    >
      <UserDialog open={page.open} user={page.record} onClose={page.close} />
      {page.confirmDialog}
    </ListPage>
  );
}
