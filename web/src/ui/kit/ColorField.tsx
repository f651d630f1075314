/**
 * A colour field: the colour's text (any CSS colour, e.g. #1e88e5) with a swatch button that opens react-colorful's
 * picker below it (keyboard-accessible sliders). Used by the queue and tag dialogs.
 */
import { TextField } from "@aws-amplify/ui-react";
import { useState } from "react";
import { HexColorPicker } from "react-colorful";
import { useTranslation } from "react-i18next";

/** A readable random colour (for a new record), as #rrggbb. */
export function randomColor(): string {
  const h = Math.floor(Math.random() * 360);
  const s = 0.55;
  const l = 0.45;
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

export function ColorField(props: { label: string; name: string; value: string; onChange: (v: string) => void; hasError: boolean; errorMessage?: string; isRequired?: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const hex = /^#[0-9a-fA-F]{6}$/.test(props.value) ? props.value : "#000000";
  return (
    <div className="color-field">
      <div className="color-field-row">
        <TextField
          flex="1"
          label={props.label}
          name={props.name}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          hasError={props.hasError}
          errorMessage={props.errorMessage}
          isRequired={props.isRequired}
          autoComplete="off"
        />
        <button
          type="button"
          className="color-swatch-button"
          style={{ background: props.value || "transparent" }}
          aria-label={t("kit.pickColor")}
          aria-expanded={open}
          title={t("kit.pickColor")}
          onClick={() => setOpen((o) => !o)}
          data-testid={`${props.name}-picker`}
        />
      </div>
      {open && (
        <div className="color-picker">
          <HexColorPicker color={hex} onChange={props.onChange} />
        </div>
      )}
    </div>
  );
}
