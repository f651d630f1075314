/**
 * A tiny toast system: `useToast()` returns `{success, error, info}`; each toast closes after 3 s
 * (pass `durationMs: 2000` in the attendance area, whose toasts last 2 s) or when dismissed.
 * Error toasts are announced assertively (role="alert"), others politely (role="status").
 */
import { Alert } from "@aws-amplify/ui-react";
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

type Variation = "success" | "error" | "info" | "warning";
interface ToastItem {
  id: number;
  text: string;
  variation: Variation;
}
interface ToastOptions {
  durationMs?: number;
}
export interface ToastApi {
  success(text: string, o?: ToastOptions): void;
  error(text: string, o?: ToastOptions): void;
  info(text: string, o?: ToastOptions): void;
  warning(text: string, o?: ToastOptions): void;
}

const Ctx = createContext<ToastApi | null>(null);

/** Default toast duration outside the attendance area (ms). */
export const TOAST_MS = 3000;
/** Toast duration in the attendance area (tickets, messages), in ms: pass `{durationMs: ATTENDANCE_TOAST_MS}`. */
export const ATTENDANCE_TOAST_MS = 2000;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const next = useRef(1);
  const { t } = useTranslation();
  const remove = useCallback((id: number) => setItems((xs) => xs.filter((x) => x.id !== id)), []);
  const push = useCallback(
    (variation: Variation) => (text: string, o?: ToastOptions) => {
      const id = next.current++;
      setItems((xs) => [...xs.slice(-4), { id, text, variation }]);
      setTimeout(() => remove(id), o?.durationMs ?? TOAST_MS);
    },
    [remove],
  );
  const api = useMemo<ToastApi>(
    () => ({ success: push("success"), error: push("error"), info: push("info"), warning: push("warning") }),
    [push],
  );
  return (
    <Ctx.Provider value={api}>
      {children}
      <div className="toasts" aria-live="polite">
        {items.map((x) => (
          <Alert
            key={x.id}
            role={x.variation === "error" ? "alert" : "status"}
            data-testid="toast"
            variation={x.variation}
            isDismissible
            dismissButtonLabel={t("common.close")}
            onDismiss={() => remove(x.id)}
            className="toast"
          >
            {x.text}
          </Alert>
        ))}
      </div>
    </Ctx.Provider>
  );
}

/** The toast API of the nearest `ToastProvider`. */
export function useToast(): ToastApi {
  const api = useContext(Ctx);
  if (!api) throw new Error("useToast outside ToastProvider");
  return api;
}
