/**
 * The kit's form dialog: a zod schema whose messages are the product's validation texts as i18n keys
 * ('validation.required' → 'Required', ...), the values of the fields, errors under each field (after the first
 * submit they follow every change), the save button's busy state, Enter submits and Escape closes (the `Dialog`), a
 * success toast, and on failure the server's field messages under the fields (and the text of an error code the
 * dialog ties to a field, `codeFields`, such as a name already taken) plus the translated error toast. Every
 * failed submit focuses and scrolls to the first invalid field (bringing its tab forward in a dialog in tabs), so an
 * error out of view is never silent.
 */
import { Button, Flex } from "@aws-amplify/ui-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { HttpError } from "../../api/client.ts";
import { reportSaveError } from "../../api/errors.ts";
import i18n from "../../i18n/index.ts";
import { Dialog } from "../Dialog.tsx";
import { useToast } from "../Toast.tsx";

type Values = Record<string, unknown>;

/** The form's state as the fields see it. */
export interface FormApi<V extends Values> {
  values: V;
  set: <K extends keyof V>(k: K, v: V[K]) => void;
  /** The translated error of a field, if any. */
  error: (k: keyof V & string) => string | undefined;
  /** Props of an Amplify text field bound to a string value: name, value, onChange, hasError, errorMessage. */
  text: (k: keyof V & string) => { name: string; value: string; onChange: (e: { target: { value: string } }) => void; hasError: boolean; errorMessage?: string };
}

/** The first message per top-level field of a failed parse. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const k = String(issue.path[0] ?? "");
    if (k && !out[k]) out[k] = issue.message;
  }
  return out;
}

/** An error text: an i18n key is translated, a server message shown as is. */
const shown = (m: string | undefined) => (m ? (i18n.exists(m) ? i18n.t(m) : m) : undefined);

export interface FormDialogProps<S extends z.ZodType<unknown, Values>> {
  open: boolean;
  title: string;
  onClose: () => void;
  schema: S;
  /** The values when the dialog opens (read on each opening). */
  initial: () => z.input<S>;
  /** Sends the parsed values; its result is given to `onSaved`. */
  onSubmit: (values: z.output<S>) => Promise<unknown>;
  successText: string;
  onSaved?: (result: unknown) => void;
  /** The submit button's text ('Salvar' by default). */
  submitText?: string;
  /** Keep the dialog open after a successful save (e.g. a new record that has more to set once it exists). */
  stayOpen?: boolean;
  /** Toast duration (the attendance area uses 2 s). */
  toastMs?: number;
  width?: string;
  saveTestId?: string;
  /** Server error codes about one field (e.g. `ERR_TAG_NAME_ALREADY_EXISTS` → `name`): their text also goes under it. */
  codeFields?: Record<string, string>;
  /** The error toast of a failed save, in place of the server's translated error (field errors still show). */
  failText?: string;
  children: (f: FormApi<z.input<S> & Values>) => ReactNode;
}

export function FormDialog<S extends z.ZodType<unknown, Values>>(p: FormDialogProps<S>) {
  type V = z.input<S> & Values;
  const { t } = useTranslation();
  const toast = useToast();
  const [values, setValues] = useState<V>(() => p.initial() as V);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [focusTick, setFocusTick] = useState(0);
  const body = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!p.open) return;
    setValues(p.initial() as V);
    setErrors({});
    setTouched(false);
  }, [p.open]); // eslint-disable-line react-hooks/exhaustive-deps

  // After a failed submit: the first invalid field gets focus and is scrolled into view; a field on a tab that is not
  // shown (a dialog in tabs) first brings its tab forward.
  useEffect(() => {
    if (!focusTick) return;
    const el = body.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!el) return;
    const reveal = () => {
      el.focus({ preventScroll: true });
      el.scrollIntoView({ block: "center" });
    };
    const panel = el.closest<HTMLElement>('[role="tabpanel"]');
    const tab = panel && panel.getClientRects().length === 0 ? document.getElementById(panel.getAttribute("aria-labelledby") ?? "") : null;
    if (!tab) return reveal();
    tab.click();
    requestAnimationFrame(reveal);
  }, [focusTick]);

  const check = (v: V) => {
    const r = p.schema.safeParse(v);
    return r.success ? { ok: true as const, data: r.data, errors: {} } : { ok: false as const, errors: fieldErrors(r.error) };
  };
  const set: FormApi<V>["set"] = (k, v) => {
    const next = { ...values, [k]: v } as V;
    setValues(next);
    if (touched) setErrors(check(next).errors);
  };
  const error = (k: string) => shown(errors[k]);

  const submit = async () => {
    if (busy) return;
    setTouched(true);
    const r = check(values);
    setErrors(r.errors);
    if (!r.ok) {
      setFocusTick((n) => n + 1);
      return;
    }
    setBusy(true);
    try {
      const result = await p.onSubmit(r.data as z.output<S>);
      toast.success(p.successText, { durationMs: p.toastMs });
      p.onSaved?.(result);
      if (!p.stayOpen) p.onClose();
    } catch (e) {
      const field = e instanceof HttpError && e.code ? p.codeFields?.[e.code] : undefined;
      reportSaveError(
        e,
        (fields) => {
          setErrors(fields);
          setFocusTick((n) => n + 1);
        },
        (m) => {
          if (field) {
            setErrors({ [field]: m });
            setFocusTick((n) => n + 1);
          }
          toast.error(p.failText ?? m, { durationMs: p.toastMs });
        },
        t,
      );
    } finally {
      setBusy(false);
    }
  };

  const api: FormApi<V> = {
    values,
    set,
    error,
    text: (k) => ({
      name: k,
      value: String(values[k] ?? ""),
      onChange: (e) => set(k, e.target.value as V[typeof k]),
      hasError: !!errors[k],
      errorMessage: error(k),
    }),
  };

  return (
    <Dialog
      open={p.open}
      title={p.title}
      onClose={p.onClose}
      onSubmit={() => void submit()}
      width={p.width}
      footer={
        <>
          <Button onClick={p.onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variation="primary" isLoading={busy} data-testid={p.saveTestId}>
            {p.submitText ?? t("common.save")}
          </Button>
        </>
      }
    >
      <Flex direction="column" gap="1rem" ref={body}>
        {p.children(api)}
      </Flex>
    </Dialog>
  );
}

/** What a page hands its add/edit dialog: open or not, the record being edited (null to add), and how to close. */
export interface RecordDialogProps<T> {
  open: boolean;
  record: T | null;
  onClose: () => void;
}

/**
 * A feature's add/edit dialog on the form dialog: the title `{ns}.editTitle` (with a `record`) or `{ns}.addTitle`, the
 * success toast `{ns}.saved`, the failure toast `{ns}.saveFailed` when the namespace has one, and the save button's
 * test id `save-{entity}`.
 */
export function CrudDialog<S extends z.ZodType<unknown, Values>>({
  ns,
  entity,
  record,
  ...rest
}: Omit<FormDialogProps<S>, "title" | "successText" | "saveTestId"> & { ns: string; entity: string; record: unknown }) {
  const { t, i18n } = useTranslation();
  const failText = i18n.exists(`${ns}.saveFailed`) ? t(`${ns}.saveFailed`) : undefined;
  return <FormDialog {...rest} title={t(record ? `${ns}.editTitle` : `${ns}.addTitle`)} successText={t(`${ns}.saved`)} failText={failText} saveTestId={`save-${entity}`} />;
}
