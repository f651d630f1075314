/**
 * The web's kit: list page, form dialog, row actions with the delete confirmation, CRUD caches, realtime
 * merge and mutations. A feature's page is its columns and its row; its dialog is its schema and its fields.
 */
import "./kit.css";
import "./texts.ts";
export { arrayCache, crudRealtime, isStale, pagedCache, useCrudMutations, type CrudCalls, type EntityCache, type Identified, type Page, type PagedCache } from "./crud.ts";
export { ColorField, randomColor } from "./ColorField.tsx";
export { CrudDialog, FormDialog, fieldErrors, type FormApi, type RecordDialogProps } from "./FormDialog.tsx";
export { ChatIcon, DeleteIcon, EditIcon } from "./icons.tsx";
export { fromArray, fromPages, ListPage, NEAR_BOTTOM_PX, SEARCH_DEBOUNCE_MS, useListSearch, type ListQuery, type ListSearch } from "./ListPage.tsx";
export { IconAction, RowActions, useCrudPage, useDeleteConfirm, type CrudPage } from "./RowActions.tsx";
export { EntitySelect, type EntityOption, type EntitySelectProps } from "./EntitySelect.tsx";
export { HiddenFileInput } from "./FileInput.tsx";
export { AttachmentField, useAttachmentChoice } from "./AttachmentField.tsx";
export { useAction } from "./useAction.ts";
export { CrudListPage, useCrudList, type Column, type CrudListPageProps } from "./CrudListPage.tsx";
export * as rules from "./schema.ts";
