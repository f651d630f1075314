/** The platform logos' calls (docs/product/logos.md): the public list and the super user's upload. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { LogoRef, LogoView } from "@atende/shared/logos/schema";
import { call } from "../../api/operations.ts";

export const logosKey = ["logos"] as const;

/**
 * Every destination's logo (public: the login page reads it too); refreshed before its links expire, whenever the tab
 * comes back into view (the app's default, which is how the public pages, with no socket, see a new logo) and on a
 * `company-{id}-logo` frame (`index.tsx`).
 */
export function useLogos() {
  return useQuery({
    queryKey: logosKey,
    queryFn: async () => (await call("GET /api/logos", { noSessionRule: true })).logos,
    staleTime: 30 * 60_000,
    refetchInterval: 45 * 60_000,
  });
}

/** Uploads `file` as the logo of `ref`; the list is read again, so every logo on screen changes at once. */
export function useUploadLogo() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ ref, file }: { ref: LogoRef; file: File }) => {
      const form = new FormData();
      form.append("file", file, file.name);
      return call("POST /api/settings/media-upload", { query: { ref }, form });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: logosKey }),
  });
}

/** A place a logo shows (a destination without its `-dark` twin). */
export type LogoPlace = "login" | "signup" | "interno" | "favicon" | "favicon-256x256" | "apple-touch-icon";

/** Where a place without a logo of its own borrows one: the sign-up page shows the login page's. */
const BORROWS: Partial<Record<LogoPlace, LogoPlace>> = { signup: "login" };

/**
 * The logo to show at `place` in colour mode `mode`: the dark one in dark mode when there is one, else the light one;
 * else the logo of the place it borrows from ({@link BORROWS}); undefined when none.
 */
export function logoFor(logos: LogoView[] | undefined, place: LogoPlace, mode: "light" | "dark"): LogoView | undefined {
  const dark = mode === "dark" ? logos?.find((l) => l.ref === `${place}-dark`) : undefined;
  const own = dark ?? logos?.find((l) => l.ref === place);
  const borrowed = BORROWS[place];
  return own ?? (borrowed ? logoFor(logos, borrowed, mode) : undefined);
}
