/**
 * The full emoji picker (emoji-picker-react), loaded on first open so its ~600 KB stay out of the initial bundle.
 * Follows the app's colour mode. `onEmoji` receives the emoji as a string (e.g. "👍").
 */
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { useColorMode } from "../../ui/theme.tsx";

const Picker = lazy(async () => {
  const m = await import("emoji-picker-react");
  function ThemedPicker(p: { dark: boolean; height: number; onEmoji: (emoji: string) => void }) {
    return (
      <m.default
        theme={p.dark ? m.Theme.DARK : m.Theme.LIGHT}
        width="100%"
        height={p.height}
        lazyLoadEmojis
        onEmojiClick={(e) => p.onEmoji(e.emoji)}
      />
    );
  }
  return { default: ThemedPicker };
});

export function EmojiPickerLazy({ height, onEmoji }: { height: number; onEmoji: (emoji: string) => void }) {
  const { mode } = useColorMode();
  const { t } = useTranslation();
  return (
    <Suspense fallback={<div style={{ height }} role="status" aria-busy="true" aria-label={t("common.loading")} />}>
      <Picker dark={mode === "dark"} height={height} onEmoji={onEmoji} />
    </Suspense>
  );
}
