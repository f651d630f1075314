/**
 * One user action with its feedback (part of the kit): `run(work, ok?)` marks the action busy, awaits `work`, shows
 * `ok` as a success toast when given, and shows the API's translated error as an error toast instead of throwing.
 * Resolves true when the work succeeded; `work` resolving `false` is a failure it already explained (no toast).
 */
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { useToast } from "../Toast.tsx";

export function useAction(opts: { durationMs?: number } = {}) {
  const { t } = useTranslation();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const { durationMs } = opts;
  const run = useCallback(
    async (work: () => Promise<unknown>, ok?: string): Promise<boolean> => {
      setBusy(true);
      try {
        if ((await work()) === false) return false;
        if (ok) toast.success(ok, durationMs ? { durationMs } : undefined);
        return true;
      } catch (e) {
        toast.error(errorMessage(e, t), durationMs ? { durationMs } : undefined);
        return false;
      } finally {
        setBusy(false);
      }
    },
    [t, toast, durationMs],
  );
  return { busy, run };
}
