/**
 * The conversation's message dialogs (edit and delete only one's own messages, docs/product/messages.md#editing-and-deleting):
 * - {@link EditMessageDialog}: the text without the agent signature (the server keeps it); Enter saves and Shift+Enter
 *   breaks the line, as in the composer;
 * - {@link ForwardDialog}: the selected messages to a contact, one after another with {@link FORWARD_PAUSE_MS} between;
 * - {@link StartFromVcard}: a vCard's "start conversation" finds (or creates) the contact and opens the new ticket dialog.
 */
import { Button, Text } from "@aws-amplify/ui-react";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { HttpError } from "../../api/client.ts";
import { errorMessage } from "../../api/errors.ts";
import { call } from "../../api/operations.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { useAction } from "../../ui/kit/useAction.ts";
import { messageActions } from "./api.ts";
import { upsertMessage } from "./cache.ts";
import { savedSign } from "./Composer.tsx";
import { ContactPicker, type Contact } from "./ContactPicker.tsx";
import { NewTicketDialog, otherTicketText } from "./NewTicketDialog.tsx";
import type { Message, Ticket } from "./types.ts";

/** Pause between forwarded messages (a product constant), in ms. */
export const FORWARD_PAUSE_MS = 900;

/** The agent signature a signed text starts with (`*Name:*` and a newline). */
const SIGNATURE = /^\*[^*\n]+:\*\n/;

/** The text an agent edits: the message body without its signature (the server puts it back). */
export function editableText(body: string): string {
  return body.replace(SIGNATURE, "");
}

export function EditMessageDialog({ message, onClose }: { message: Message | null; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [text, setText] = useState("");
  const { busy, run } = useAction({ durationMs: 2000 });
  useEffect(() => {
    if (message) setText(editableText(message.body));
  }, [message]);
  const save = async () => {
    if (!message || !text.trim() || busy) return;
    // The edit's own frame may arrive first: the answer is then already shown, and the edit still succeeded.
    const saved = await run(async () => {
      upsertMessage(qc, await messageActions.edit(message.id, text.trim()));
    });
    if (saved) onClose();
  };
  return (
    <Dialog
      open={!!message}
      title={t("tickets.messages.editTitle")}
      onClose={onClose}
      onSubmit={save}
      footer={
        <>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variation="primary" isDisabled={!text.trim()} isLoading={busy}>
            {t("common.save")}
          </Button>
        </>
      }
    >
      <textarea
        className="text-input"
        rows={4}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            e.currentTarget.form?.requestSubmit();
          }
        }}
        aria-label={t("tickets.messages.editTitle")}
        aria-describedby="edit-message-hint"
      />
      <span id="edit-message-hint" className="sub-line">
        {t("tickets.messages.editHint")}
      </span>
    </Dialog>
  );
}

export function ForwardDialog(props: { open: boolean; messages: Message[]; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [to, setTo] = useState<Contact | null>(null);
  const [sign, setSign] = useState(savedSign);
  const [blocked, setBlocked] = useState("");
  const { busy, run } = useAction({ durationMs: 2000 });
  const choose = (c: Contact | null) => {
    setTo(c);
    setBlocked("");
  };
  const forward = async () => {
    if (!props.messages.length) {
      toast.error(t("tickets.messages.forwardNone"), { durationMs: 2000 });
      return;
    }
    if (!to) return;
    setBlocked("");
    const sent = await run(async () => {
      try {
        for (const [i, m] of props.messages.entries()) {
          if (i > 0) await new Promise((r) => setTimeout(r, FORWARD_PAUSE_MS));
          await messageActions.forward(m.id, to.id, sign);
        }
      } catch (e) {
        // The contact's open ticket is in a queue the agent may not open: say where and who holds it, and what to do.
        const other = e instanceof HttpError && e.code === "ERR_OTHER_OPEN_TICKET" ? (e.body as { ticket?: Ticket | null })?.ticket : undefined;
        if (!other) throw e;
        setBlocked(t("tickets.messages.forwardBlocked", { other: otherTicketText(t, other) }));
        return false;
      }
      return true;
    }, t("tickets.messages.forwarded_ok"));
    if (sent) props.onDone();
  };
  return (
    <Dialog
      open={props.open}
      title={t("tickets.messages.forwardTitle")}
      onClose={props.onClose}
      onSubmit={forward}
      footer={
        <>
          <Button onClick={props.onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variation="primary" isDisabled={!to} isLoading={busy}>
            {t("tickets.messages.forward")}
          </Button>
        </>
      }
    >
      <ContactPicker label={t("tickets.messages.forwardTo")} value={to} onChange={choose} />
      {blocked && (
        <Text role="alert" variation="warning" data-testid="forward-blocked">
          {blocked}
        </Text>
      )}
      <label className="sign-toggle">
        <input type="checkbox" checked={sign} onChange={(e) => setSign(e.target.checked)} /> {t("tickets.composer.sign")}
      </label>
    </Dialog>
  );
}

/** A vCard's "start conversation": finds the contact by number (creating it when missing) and opens the new ticket dialog. */
export function StartFromVcard({ name, number, onClose }: { name: string; number: string; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [contact, setContact] = useState<Contact | null>(null);
  useEffect(() => {
    let gone = false;
    void (async () => {
      try {
        const found = await call("GET /api/contacts/list", { query: { searchParam: number } });
        const hit = found.find((x) => x.number === number);
        const c = hit ?? (await call("POST /api/contacts", { body: { name: name.length >= 2 ? name : number, number, email: "" } }));
        if (!gone) setContact(c);
      } catch (e) {
        toast.error(errorMessage(e, t), { durationMs: 2000 });
        onClose();
      }
    })();
    return () => {
      gone = true;
    };
  }, [name, number]); // eslint-disable-line react-hooks/exhaustive-deps
  return contact ? <NewTicketDialog open initialContact={contact} onClose={onClose} /> : null;
}
