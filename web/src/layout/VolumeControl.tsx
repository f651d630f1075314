/**
 * Top-bar notification volume (docs/product/tickets.md#notifications: volume 0 to 1 in steps of 0.1, stored as
 * `volume`): a speaker button opening a small popover with a 0..1 slider (step 0.1). The value is saved
 * in localStorage `volume`, read by the chime of `features/tickets/realtime.ts`; releasing the slider plays the chime
 * at the chosen volume. Other tabs follow through the `storage` event.
 */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { notificationVolume, playChime, setNotificationVolume, unlockAudio, VOLUME_EVENT, VOLUME_KEY } from "../features/tickets/realtime.ts";
import { SpeakerIcon } from "./icons.tsx";
import { usePopover } from "./usePopover.ts";

/** The saved volume (0..1), kept current across this tab and others. */
export function useVolume(): [number, (v: number) => void] {
  const [volume, setVolume] = useState(notificationVolume);
  useEffect(() => {
    const sync = () => setVolume(notificationVolume());
    const onStorage = (e: StorageEvent) => (e.key === VOLUME_KEY || e.key === null) && sync();
    window.addEventListener(VOLUME_EVENT, sync);
    window.addEventListener("storage", onStorage);
    return () => {
      window.removeEventListener(VOLUME_EVENT, sync);
      window.removeEventListener("storage", onStorage);
    };
  }, []);
  return [volume, (v: number) => setVolume(setNotificationVolume(v))];
}

export function VolumeControl() {
  const { t } = useTranslation();
  const [volume, setVolume] = useVolume();
  const pop = usePopover();
  const label = t("tickets.notify.volume");
  const percent = `${Math.round(volume * 100)}%`;
  const preview = () => {
    unlockAudio();
    playChime();
  };
  return (
    <div className="topbar-pop">
      <button type="button" className="topbar-icon" {...pop.buttonProps} aria-label={`${label}: ${percent}`} title={`${label}: ${percent}`} data-testid="volume-button">
        <SpeakerIcon level={volume} />
      </button>
      {pop.open && (
        <div className="topbar-panel volume-panel" role="dialog" aria-label={label} {...pop.panelProps} data-testid="volume-panel">
          <div className="volume-row">
            <span className="volume-title" aria-hidden="true">
              {label}
            </span>
            <span className="volume-slider">
              <SpeakerIcon level={0} />
              <input
                type="range"
                min={0}
                max={1}
                step={0.1}
                value={volume}
                autoFocus
                onChange={(e) => setVolume(Number(e.target.value))}
                onPointerUp={preview}
                onKeyUp={(e) => e.key !== "Tab" && e.key !== "Escape" && preview()}
                aria-label={label}
                aria-valuetext={percent}
                data-testid="volume-slider"
              />
              <SpeakerIcon level={1} />
            </span>
            <output className="volume-value" data-testid="volume-value">
              {percent}
            </output>
          </div>
        </div>
      )}
    </div>
  );
}
