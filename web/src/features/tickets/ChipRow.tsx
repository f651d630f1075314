/**
 * One line of chips (a ticket row's queue, connection, agent, rating state and tags) that never cuts a chip: the chips
 * that fit are shown, the rest are counted in a "+N" chip whose title (and accessible name) lists them. Re-measured when
 * the line's width changes (ResizeObserver) or the chips change.
 */
import { Children, type ReactNode, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

/** Space between chips, in px (the `.chip-row` gap). */
const GAP_PX = 4;

export function ChipRow({ children, className = "" }: { children: ReactNode; className?: string }) {
  const { t } = useTranslation();
  const items = Children.toArray(children).filter(Boolean);
  const ref = useRef<HTMLSpanElement>(null);
  const [shown, setShown] = useState(items.length);
  const [rest, setRest] = useState("");
  const signature = items.map((c) => (typeof c === "object" && c && "key" in c ? String(c.key) : String(c))).join("|");

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const chips = [...el.querySelectorAll<HTMLElement>(":scope > [data-chip]")];
      const more = el.querySelector<HTMLElement>(":scope > [data-more]");
      const room = el.clientWidth;
      const moreWidth = (more?.offsetWidth ?? 0) + GAP_PX;
      let used = 0;
      let fit = chips.length;
      for (let i = 0; i < chips.length; i++) {
        const w = chips[i].offsetWidth + (i ? GAP_PX : 0);
        const last = i === chips.length - 1;
        if (used + w + (last ? 0 : moreWidth) > room) {
          fit = i;
          break;
        }
        used += w;
      }
      // At least one chip (it ellipsizes when alone and too wide).
      fit = Math.max(fit, Math.min(1, chips.length));
      setShown(fit);
      setRest(
        chips
          .slice(fit)
          .map((c) => c.textContent?.trim() ?? "")
          .filter(Boolean)
          .join(", "),
      );
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [signature]);

  const hidden = items.length - shown;
  return (
    <span className={`chip-row ${className}`} ref={ref}>
      {items.map((c, i) => (
        <span key={i} data-chip="" className={`chip-slot ${i >= shown ? "chip-hidden" : ""}`} aria-hidden={i >= shown ? true : undefined}>
          {c}
        </span>
      ))}
      <span
        data-more=""
        data-testid="chips-more"
        role="img"
        className={`tag chip-more ${hidden > 0 ? "" : "chip-hidden"}`}
        title={rest}
        aria-label={hidden > 0 ? t("tickets.moreChips", { count: hidden, names: rest }) : undefined}
        aria-hidden={hidden > 0 ? undefined : true}
      >
        +{Math.max(hidden, 1)}
      </span>
    </span>
  );
}
