/**
 * The top bar's notifications-on-this-device popover (docs/product/push.md#opting-in), beside the profile button: a
 * switch that asks the browser's permission and subscribes this device, or removes it; clear states when the browser
 * refused the permission, cannot do push, or the server has no keys.
 */
import { BellRing, BellOff } from "lucide-react";
import { useTranslation } from "react-i18next";
import { usePopover } from "../../layout/usePopover.ts";
import { usePushState } from "./api.ts";

export function PushPopover() {
  const { t } = useTranslation();
  const pop = usePopover();
  const push = usePushState();
  const on = push.state === "on";
  const canToggle = push.state === "on" || push.state === "off";
  const note = t(`push.${push.state}`);
  return (
    <div className="topbar-pop">
      <button type="button" className="topbar-icon" {...pop.buttonProps} aria-label={t("push.button")} title={t("push.button")} data-testid="push-button" data-state={push.state}>
        {on ? <BellRing size={22} aria-hidden="true" focusable="false" /> : <BellOff size={22} aria-hidden="true" focusable="false" />}
      </button>
      {pop.open && (
        <div className="topbar-panel notify-panel push-panel" role="dialog" aria-label={t("push.title")} tabIndex={-1} {...pop.panelProps} data-testid="push-panel">
          <div className="notify-head">
            <strong>{t("push.title")}</strong>
          </div>
          <p className="push-explain">{t("push.explain")}</p>
          <label className="push-switch">
            <input
              type="checkbox"
              role="switch"
              checked={on}
              disabled={!canToggle}
              aria-checked={on}
              onChange={() => void (on ? push.disable() : push.enable())}
              data-testid="push-toggle"
            />
            <span>{t("push.toggle")}</span>
          </label>
          <p className={`push-note push-${push.state}`} role="status" data-testid="push-note">
            {note}
          </p>
          {push.error && (
            <p className="push-note push-denied" role="alert">
              {t("push.failed", { error: push.error })}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
