/**
 * Amplify UI theme: green primary colour, light and dark modes. The mode defaults to the saved
 * choice (localStorage `theme`), else the system preference; `useColorMode()` reads and toggles it.
 */
import { ThemeProvider, createTheme, defaultDarkModeOverride } from "@aws-amplify/ui-react";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";

export type ColorMode = "light" | "dark";
const STORAGE_KEY = "theme";

/** The green scale from light to dark; dark mode reads it the other way round (60 is a lighter green there). */
const GREENS = { 10: "#e8f5e9", 20: "#c8e6c9", 40: "#81c784", 60: "#43a047", 80: "#2e7d32", 90: "#1b5e20", 100: "#0d3d12" };
const DARK_GREENS = { 10: "#0d3d12", 20: "#1b5e20", 40: "#2e7d32", 60: "#66bb6a", 80: "#81c784", 90: "#a5d6a7", 100: "#e8f5e9" };
const tokensOf = (scale: Record<number, string>) => Object.fromEntries(Object.entries(scale).map(([k, value]) => [k, { value }]));

/** The custom theme: primary = green, plus Amplify's default dark-mode override. */
export const theme = createTheme({
  name: "atende",
  tokens: { colors: { primary: tokensOf(GREENS) } },
  overrides: [defaultDarkModeOverride, { colorMode: "dark", tokens: { colors: { primary: tokensOf(DARK_GREENS) } } }],
});

function initialMode(): ColorMode {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved === "light" || saved === "dark") return saved;
  return window.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

const Ctx = createContext<{ mode: ColorMode; toggle: () => void }>({ mode: "light", toggle: () => {} });

/** Provides the theme and the colour mode to the app. */
export function AppThemeProvider({ children }: { children: ReactNode }) {
  const [mode, setMode] = useState<ColorMode>(initialMode);
  const toggle = useCallback(() => {
    setMode((m) => {
      const next = m === "dark" ? "light" : "dark";
      localStorage.setItem(STORAGE_KEY, next);
      return next;
    });
  }, []);
  useEffect(() => {
    document.documentElement.dataset.theme = mode;
    document.documentElement.style.colorScheme = mode;
  }, [mode]);
  const value = useMemo(() => ({ mode, toggle }), [mode, toggle]);
  return (
    <Ctx.Provider value={value}>
      <ThemeProvider theme={theme} colorMode={mode}>
        {children}
      </ThemeProvider>
    </Ctx.Provider>
  );
}

/** The current colour mode and a toggle that saves the choice. */
export function useColorMode() {
  return useContext(Ctx);
}
