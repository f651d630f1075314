/**
 * The sandbox's bank: paste an invoice's Pix "copia e cola" and pay it. The local stack confirms the charge through
 * the same webhook the Pix provider calls in the cloud (docs/product/invoices.md#pix).
 */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useToast } from "../../ui/Toast.tsx";
import { SimHttpError, simPayPix } from "./api.ts";

export function SandboxPix() {
  const { t } = useTranslation();
  const toast = useToast();
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const pay = async () => {
    setBusy(true);
    try {
      const { applied } = await simPayPix(code);
      if (applied) {
        toast.success(t("sandbox.pixPaid"));
        setCode("");
      } else toast.warning(t("sandbox.pixNothing"));
    } catch (e) {
      toast.error(e instanceof SimHttpError && e.code === "ERR_PIX_CODE" ? t("sandbox.pixInvalid") : String((e as Error).message));
    } finally {
      setBusy(false);
    }
  };
  return (
    <fieldset className="fieldset">
      <legend>{t("sandbox.pixTitle")}</legend>
      <form
        style={{ display: "flex", flexDirection: "column", gap: "0.5rem" }}
        onSubmit={(e) => {
          e.preventDefault();
          if (code.trim() && !busy) void pay();
        }}
      >
        <label className="field">
          <span className="sub-label">{t("sandbox.pixCode")}</span>
          <textarea className="text-input" rows={3} value={code} onChange={(e) => setCode(e.target.value)} data-testid="sandbox-pix-code" />
        </label>
        <button type="submit" className="btn-primary" disabled={!code.trim() || busy} data-testid="sandbox-pix-pay">
          {t("sandbox.pixPay")}
        </button>
      </form>
    </fieldset>
  );
}
