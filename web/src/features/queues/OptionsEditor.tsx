/**
 * The queue's chatbot option editor (docs/product/queues.md#options: a nested option tree per queue, each node with
 * title, message, position, optional media, children): every node edited in place (title and message saved when the
 * field loses focus), children added under any node, a node deleted with its subtree after a confirmation, media
 * attached or removed, and siblings reordered by drag and drop or from the keyboard (dnd-kit: focus the handle, Space
 * to lift, arrows to move, Space to drop). The number shown is what the customer types.
 */
import { Button, Flex, Loader, Text, TextAreaField, TextField } from "@aws-amplify/ui-react";
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from "@dnd-kit/core";
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { useToast } from "../../ui/Toast.tsx";
import { DeleteIcon, HiddenFileInput, IconAction, useAction, useDeleteConfirm } from "../../ui/kit/index.ts";
import { useOptionMutations, useQueueOptions } from "./api.ts";
import type { QueueOption } from "./types.ts";

type Mutations = ReturnType<typeof useOptionMutations>;

const svg = (d: string) => (
  <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d={d} />
  </svg>
);
const DragIcon = () => svg("M11 18c0 1.1-.9 2-2 2s-2-.9-2-2 .9-2 2-2 2 .9 2 2zm-2-8c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2zm0-6c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2zm6 4c1.1 0 2-.9 2-2s-.9-2-2-2-2 .9-2 2 .9 2 2 2zm0 2c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2zm0 6c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2z");
const AttachIcon = () => svg("M16.5 6v11.5c0 2.21-1.79 4-4 4s-4-1.79-4-4V5a2.5 2.5 0 0 1 5 0v10.5c0 .55-.45 1-1 1s-1-.45-1-1V6H10v9.5a2.5 2.5 0 0 0 5 0V5c0-2.21-1.79-4-4-4S7 2.79 7 5v12.5c0 3.04 2.46 5.5 5.5 5.5s5.5-2.46 5.5-5.5V6h-1.5z");
const AddIcon = () => svg("M19 13h-6v6h-2v-6H5v-2h6V5h2v6h6v2z");

export function OptionsEditor({ queueId }: { queueId: number }) {
  const { t } = useTranslation();
  const tree = useQueueOptions(queueId);
  const m = useOptionMutations(queueId);
  const toast = useToast();
  const del = useDeleteConfirm<QueueOption>(m.remove, t("queues.options.removed"));
  const [focusId, setFocusId] = useState<number | null>(null);
  const add = async (parentId: number | null) => {
    try {
      const o = await m.create.mutateAsync({ parentId, title: t("queues.options.newTitle") });
      setFocusId(o.id);
    } catch (e) {
      toast.error(errorMessage(e, t));
    }
  };
  if (tree.isLoading) return <Loader />;
  return (
    <Flex direction="column" gap="0.75rem" data-testid="option-editor">
      <Text fontSize="small" color="font.secondary">
        {t("queues.options.hint")}
      </Text>
      {(tree.data ?? []).length === 0 && <Text>{t("queues.options.empty")}</Text>}
      <OptionList nodes={tree.data ?? []} m={m} ask={del.ask} onAdd={add} focusId={focusId} depth={0} />
      <div>
        <Button size="small" onClick={() => void add(null)} isLoading={m.create.isPending && m.create.variables?.parentId === null} data-testid="option-add-root">
          <AddIcon />
          {t("queues.options.add")}
        </Button>
      </div>
      {del.dialog}
    </Flex>
  );
}

function OptionList(p: { nodes: QueueOption[]; m: Mutations; ask: (o: QueueOption) => void; onAdd: (parentId: number | null) => void; focusId: number | null; depth: number; label?: string }) {
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const onDragEnd = (e: DragEndEvent) => {
    if (!e.over || e.active.id === e.over.id) return;
    const index = p.nodes.findIndex((n) => n.id === e.over!.id);
    if (index >= 0) p.m.move.mutate({ id: Number(e.active.id), index });
  };
  if (!p.nodes.length) return null;
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={p.nodes.map((n) => n.id)} strategy={verticalListSortingStrategy}>
        <ol className="option-list" aria-label={p.label} data-depth={p.depth}>
          {p.nodes.map((n) => (
            <OptionNode key={n.id} node={n} {...p} />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function OptionNode(p: { node: QueueOption; m: Mutations; ask: (o: QueueOption) => void; onAdd: (parentId: number | null) => void; focusId: number | null; depth: number }) {
  const { t } = useTranslation();
  const toast = useToast();
  const n = p.node;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: n.id });
  const [title, setTitle] = useState(n.title);
  const [message, setMessage] = useState(n.message);
  const titleRef = useRef<HTMLInputElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  useEffect(() => setTitle(n.title), [n.title]);
  useEffect(() => setMessage(n.message), [n.message]);
  useEffect(() => {
    if (p.focusId === n.id) titleRef.current?.select();
  }, [p.focusId, n.id]);
  const save = async (patch: { title?: string; message?: string }) => {
    try {
      await p.m.update.mutateAsync({ id: n.id, ...patch });
      toast.success(t("queues.options.saved"));
    } catch (e) {
      toast.error(errorMessage(e, t));
    }
  };
  const { run } = useAction();
  return (
    <li ref={setNodeRef} className={`option-node${isDragging ? " dragging" : ""}`} style={{ transform: CSS.Transform.toString(transform), transition }} data-testid="option-node" data-option-title={n.title}>
      <div className="option-card">
        <div className="option-head">
          <button type="button" className="option-handle" ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={t("queues.options.drag", { title: n.title })} data-testid="option-handle">
            <DragIcon />
          </button>
          <span className="option-number" title={t("queues.options.position", { n: n.option })}>
            [ {n.option} ]
          </span>
          <TextField
            flex="1"
            size="small"
            label={t("queues.options.optionTitle")}
            labelHidden
            placeholder={t("queues.options.optionTitle")}
            ref={titleRef}
            value={title}
            maxLength={100}
            onChange={(e) => setTitle(e.target.value)}
            onBlur={() => title.trim() && title.trim() !== n.title && void save({ title: title.trim() })}
            onKeyDown={(e) => {
              // Enter saves the title (blur) instead of submitting the queue dialog's form.
              if (e.key === "Enter") {
                e.preventDefault();
                e.currentTarget.blur();
              }
            }}
            hasError={!title.trim()}
            data-testid="option-title"
          />
          <div className="row-actions">
            <IconAction label={t("queues.options.addChild")} onClick={() => p.onAdd(n.id)} testId="option-add-child">
              <AddIcon />
            </IconAction>
            <IconAction label={t("queues.options.attach")} onClick={() => fileRef.current?.click()} testId="option-attach">
              <AttachIcon />
            </IconAction>
            <IconAction label={t("queues.options.remove")} onClick={() => p.ask(n)} danger testId="option-delete">
              <DeleteIcon />
            </IconAction>
          </div>
        </div>
        <TextAreaField
          size="small"
          label={t("queues.options.message")}
          labelHidden
          placeholder={t("queues.options.message")}
          rows={2}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          onBlur={() => message !== n.message && void save({ message })}
          data-testid="option-message"
        />
        <HiddenFileInput inputRef={fileRef} onFiles={([file]) => void run(() => p.m.upload.mutateAsync({ id: n.id, file }))} />
        {n.mediaName && (
          <Flex alignItems="center" gap="0.5rem" className="option-media">
            <AttachIcon />
            <Text as="span" fontSize="small">
              {n.mediaName}
            </Text>
            <Button size="small" variation="link" onClick={() => void run(() => p.m.removeMedia.mutateAsync(n.id))}>
              {t("queues.options.removeMedia")}
            </Button>
          </Flex>
        )}
      </div>
      <OptionList nodes={n.children} m={p.m} ask={p.ask} onAdd={p.onAdd} focusId={p.focusId} depth={p.depth + 1} label={t("queues.options.children", { title: n.title })} />
    </li>
  );
}
