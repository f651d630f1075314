/**
 * /files on the kit's CRUD list page: search, a table of name, message and its files' count; add/edit modal; delete
 * after 'Deseja realmente excluir este registro?'; live through `company-{id}-file`.
 */
import { useTranslation } from "react-i18next";
import { CrudListPage, useCrudList } from "../../ui/kit/index.ts";
import { type FileList, useFileListMutations, useFileListPages } from "./api.ts";
import { FileListDialog } from "./FileListDialog.tsx";

export function FileListsPage() {
  const { t } = useTranslation();
  const { remove } = useFileListMutations();
  const crud = useCrudList<FileList, "files">("fileLists", useFileListPages, "files", remove, 1);
  return (
    <CrudListPage
      ns="fileLists"
      entity="file-list"
      {...crud}
      columns={[
        { label: t("fileLists.name"), cell: (f) => f.name },
        { label: t("fileLists.message"), className: "hide-narrow", cellClassName: "cell-clip", cell: (f) => f.message },
        { label: t("fileLists.files"), className: "col-count", cell: (f) => f.options.length },
      ]}
    >
      <FileListDialog open={crud.page.open} record={crud.page.record} onClose={crud.page.close} />
    </CrudListPage>
  );
}
