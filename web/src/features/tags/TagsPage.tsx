/**
 * /tags (docs/product/tags.md) on the kit's CRUD list page: search (500 ms debounce, back to page 1),
 * infinite scroll, a table of name (in its colour), kanban flag, ticket count and actions; add/edit dialog; delete after
 * 'Deseja realmente excluir este registro?' (the tag goes at once; taking it off its tickets is a background job whose
 * progress shows above the list until dismissed); live through `company-{id}-tag`.
 */
import { JobStarted } from "@atende/shared/jobs/schema";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSeedJob } from "../jobs/api.ts";
import { JobProgress } from "../jobs/JobProgress.tsx";
import { CrudListPage, useCrudList } from "../../ui/kit/index.ts";
import { tagsCache, useTagMutations, useTagPages } from "./api.ts";
import { TagChip } from "./TagChip.tsx";
import { TagDialog } from "./TagDialog.tsx";
import type { Tag } from "./types.ts";

export function TagsPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { remove } = useTagMutations();
  const crud = useCrudList<Tag, "tags">("tags", useTagPages, "tags", remove, 1);
  const seedJob = useSeedJob();
  const [jobId, setJobId] = useState<string | null>(null);
  const answer = remove.data;
  useEffect(() => {
    const started = JobStarted.safeParse(answer);
    if (!started.success) return;
    seedJob(started.data.job);
    setJobId(started.data.jobId);
  }, [answer, seedJob]);
  const refresh = useCallback(() => tagsCache.reload(qc), [qc]);
  return (
    <CrudListPage
      ns="tags"
      entity="tag"
      {...crud}
      columns={[
        { label: t("tags.name"), cell: (tag) => <TagChip tag={tag} /> },
        { label: t("tags.kanban"), className: "hide-narrow", cell: (tag) => (tag.kanban ? t("tags.yes") : t("tags.no")) },
        { label: t("tags.ticketsCount"), className: "col-count", testId: "tag-tickets-count", cell: (tag) => tag.ticketsCount ?? 0 },
      ]}
    >
      <JobProgress jobId={jobId} onDone={refresh} onDismiss={() => setJobId(null)} />
      <TagDialog open={crud.page.open} record={crud.page.record} onClose={crud.page.close} />
    </CrudListPage>
  );
}
