/**
 * What a logo file must be (docs/product/logos.md#the-files): its first bytes say PNG, ICO or SVG as its type does,
 * and an SVG is rebuilt by DOMPurify (on a jsdom window) keeping only drawing: no script, no event handler, no
 * `foreignObject`, no link or reference leaving the file (only `#fragment` references stay).
 */
import DOMPurify from "dompurify";
import { JSDOM } from "jsdom";

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ICO = [0x00, 0x00, 0x01, 0x00];
const startsWith = (b: Uint8Array, sig: number[]) => b.length >= sig.length && sig.every((v, i) => b[i] === v);

/** The format the bytes are (by their signature; an SVG by its first element), or null for anything else. */
export function logoFormatOf(bytes: Uint8Array): "png" | "ico" | "svg" | null {
  if (startsWith(bytes, PNG)) return "png";
  if (startsWith(bytes, ICO)) return "ico";
  const head = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, 2048)).replace(/^\uFEFF/, "");
  // An XML declaration, comments and a doctype may come before the root element.
  const rest = head.replace(/^\s*(<\?xml[^>]*\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*/i, "");
  return /^<svg[\s>]/i.test(rest) ? "svg" : null;
}

let purifier: ReturnType<typeof DOMPurify> | undefined;
let serializer: { serializeToString(n: unknown): string } | undefined;

function purify() {
  if (!purifier) {
    const { window } = new JSDOM("");
    purifier = DOMPurify(window as unknown as Parameters<typeof DOMPurify>[0]);
    serializer = new window.XMLSerializer();
    purifier.addHook("uponSanitizeAttribute", (_node, data) => {
      const name = data.attrName.toLowerCase();
      // Only references inside the file: an external href (http:, data:, javascript:, another file) is dropped.
      if ((name === "href" || name === "xlink:href") && !data.attrValue.trim().startsWith("#")) data.keepAttr = false;
      if (/url\s*\(\s*['"]?\s*(?!#)/i.test(data.attrValue)) data.keepAttr = false;
    });
  }
  return { purifier, serializer: serializer! };
}

/**
 * The SVG `text` with only drawing left, serialized as a standalone SVG document; null when nothing drawable is left
 * (no `<svg>` root survives).
 */
export function sanitizeSvg(text: string): string | null {
  const { purifier: p, serializer: s } = purify();
  const fragment = p.sanitize(text, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ["foreignObject", "script", "style", "a", "image", "animate", "set", "animateTransform", "animateMotion"],
    FORBID_ATTR: ["style"],
    RETURN_DOM_FRAGMENT: true,
  }) as unknown as { querySelector(s: string): unknown };
  const root = fragment.querySelector("svg");
  return root ? s.serializeToString(root) : null;
}
