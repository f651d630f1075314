/**
 * /prompts (docs/product/prompts.md; admins, plan flag useOpenAi) on the kit's list page: the banner about the AI
 * provider's credit with links to its usage, billing and API-key pages; a table of name, queue (sector), max tokens
 * and actions; the add/edit dialog; a delete confirmation titled with the prompt's name; live through
 * `company-{id}-prompt`.
 */
import { Alert, Button, Link, TableCell, TableRow, Text } from "@aws-amplify/ui-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { fromArray, ListPage, RowActions } from "../../ui/kit/index.ts";
import { type Prompt, usePromptMutations, usePrompts } from "./api.ts";
import { PromptDialog } from "./PromptDialog.tsx";

const PROVIDER_LINKS = [
  ["usage", "https://platform.openai.com/usage"],
  ["billing", "https://platform.openai.com/settings/organization/billing/overview"],
  ["apiKeys", "https://platform.openai.com/api-keys"],
] as const;

export function PromptsPage() {
  const { t } = useTranslation();
  const toast = useToast();
  const list = fromArray(usePrompts());
  const { remove } = usePromptMutations();
  const [editing, setEditing] = useState<{ record: Prompt | null } | null>(null);
  const [target, setTarget] = useState<Prompt | null>(null);
  const confirm = async () => {
    if (!target) return;
    try {
      await remove.mutateAsync(target.id);
      toast.info(t("prompts.deleted"));
    } catch (e) {
      toast.error(errorMessage(e, t));
    }
    setTarget(null);
  };
  return (
    <ListPage
      id="prompts"
      title={t("prompts.title")}
      tools={
        <Button variation="primary" size="small" onClick={() => setEditing({ record: null })} data-testid="add-prompt">
          {t("prompts.add")}
        </Button>
      }
      list={list}
      columns={[{ label: t("prompts.name") }, { label: t("prompts.queue") }, { label: t("prompts.maxTokens"), className: "hide-narrow" }, { label: t("common.actions"), className: "col-actions" }]}
      row={(p) => (
        <TableRow key={p.id} data-testid="prompt-row">
          <TableCell>{p.name}</TableCell>
          <TableCell>
            {p.queue && (
              <span className="queue-chip">
                <span className="swatch" style={{ background: p.queue.color }} aria-hidden="true" />
                <Text as="span" fontSize="small">
                  {p.queue.name}
                </Text>
              </span>
            )}
          </TableCell>
          <TableCell className="hide-narrow">{p.maxTokens}</TableCell>
          <TableCell className="col-actions">
            <RowActions name={p.name} onEdit={() => setEditing({ record: p })} onDelete={() => setTarget(p)} testIdPrefix="prompt" />
          </TableCell>
        </TableRow>
      )}
    >
      <Alert variation="warning" heading={t("prompts.bannerTitle")} className="prompts-banner" data-testid="prompts-banner">
        <Text fontSize="small">{t("prompts.banner")}</Text>
        <Text fontSize="small">
          {PROVIDER_LINKS.map(([label, href], i) => (
            <span key={label}>
              {i > 0 && " · "}
              <Link href={href} isExternal>
                {t(`prompts.${label}`)}
              </Link>
            </span>
          ))}
        </Text>
      </Alert>
      <PromptDialog open={!!editing} record={editing?.record ?? null} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={!!target}
        title={target ? t("prompts.confirmDelete", { name: target.name }) : ""}
        message={t("prompts.confirmDeleteText")}
        busy={remove.isPending}
        onConfirm={confirm}
        onClose={() => setTarget(null)}
      />
    </ListPage>
  );
}
