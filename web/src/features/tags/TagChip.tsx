/** A tag shown as a chip in its colour, with text in black or white, whichever reads better on it. */
import "./tags.css";

/** Black or white text for a background colour (#rgb or #rrggbb; other colours get white). */
export function textOn(color: string): string {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return "#fff";
  const hex = m[1].length === 3 ? [...m[1]].map((c) => c + c).join("") : m[1];
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 160 ? "#111" : "#fff";
}

export function TagChip({ tag, small }: { tag: { name: string; color: string }; small?: boolean }) {
  return (
    <span className={`tag-chip ${small ? "small" : ""}`} style={{ background: tag.color, color: textOn(tag.color) }} data-testid="tag-chip" title={tag.name}>
      {tag.name}
    </span>
  );
}
