/**
 * The full emoji picker (emoji-picker-react), loaded on first open so its ~600 KB stay out of the initial bundle.
 * Follows the app's colour mode and language: the picker's own emoji dataset of the user's language (emoji and
 * category names, the preview's caption; Portuguese and Spanish load on demand) and our texts for its controls.
 * `onEmoji` receives the emoji as a string (e.g. "👍").
 */
import type { EmojiData, PickerLabels } from "emoji-picker-react";
import { lazy, Suspense, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useColorMode } from "../../ui/theme.tsx";

/** The picker's dataset of a UI language (`pt`, `es`; anything else keeps the bundled English one). */
const DATASETS: Record<string, () => Promise<{ default: EmojiData }>> = {
  pt: () => import("emoji-picker-react/data/emojis-pt"),
  es: () => import("emoji-picker-react/data/emojis-es"),
};

const LABEL_KEYS: (keyof PickerLabels)[] = [
  "searchPlaceholder",
  "searchLabel",
  "searchClear",
  "searchResultsNone",
  "searchResultsOne",
  "searchResultsMany",
  "categoryNavigation",
  "reactions",
  "expandReactions",
  "loading",
  "loadingError",
  "retryLoading",
  "skinToneNeutral",
  "skinToneLight",
  "skinToneMediumLight",
  "skinToneMedium",
  "skinToneMediumDark",
  "skinToneDark",
];

const Picker = lazy(async () => {
  const m = await import("emoji-picker-react");
  function ThemedPicker(p: { dark: boolean; height: number; lang: string; labels: Partial<PickerLabels>; onEmoji: (emoji: string) => void }) {
    return (
      <m.default
        theme={p.dark ? m.Theme.DARK : m.Theme.LIGHT}
        width="100%"
        height={p.height}
        lazyLoadEmojis
        emojiData={DATASETS[p.lang]}
        labels={p.labels}
        onEmojiClick={(e) => p.onEmoji(e.emoji)}
      />
    );
  }
  return { default: ThemedPicker };
});

export function EmojiPickerLazy({ height, onEmoji }: { height: number; onEmoji: (emoji: string) => void }) {
  const { mode } = useColorMode();
  const { t, i18n } = useTranslation();
  const lang = (i18n.resolvedLanguage ?? i18n.language ?? "pt").slice(0, 2);
  const labels = useMemo(() => Object.fromEntries(LABEL_KEYS.map((k) => [k, t(`tickets.emojiPicker.${k}`)])) as Partial<PickerLabels>, [t]);
  return (
    <Suspense fallback={<div style={{ height }} role="status" aria-busy="true" aria-label={t("common.loading")} />}>
      <Picker key={lang} dark={mode === "dark"} height={height} lang={lang} labels={labels} onEmoji={onEmoji} />
    </Suspense>
  );
}
