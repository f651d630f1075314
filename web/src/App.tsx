/** Providers (theme, react-query, toasts, realtime) around the router. */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { HttpError } from "./api/client.ts";
import { RealtimeProvider } from "./realtime/RealtimeProvider.tsx";
import { AppRoutes } from "./routes/index.tsx";
import { AppThemeProvider } from "./ui/theme.tsx";
import { ToastProvider } from "./ui/Toast.tsx";

/**
 * Query defaults: what is on screen (the active queries) is refetched whenever the tab becomes visible again, since
 * realtime events may have been missed while it slept; retry only network and 5xx errors, twice.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: "always",
      staleTime: 30_000,
      retry: (count, err) => count < 2 && !(err instanceof HttpError && err.status < 500),
    },
    mutations: { retry: false },
  },
});

export function App() {
  return (
    <AppThemeProvider>
      <QueryClientProvider client={queryClient}>
        <ToastProvider>
          <RealtimeProvider>
            <AppRoutes />
          </RealtimeProvider>
        </ToastProvider>
      </QueryClientProvider>
    </AppThemeProvider>
  );
}
