/**
 * The platform's logos where they show: the login, sign-up and side menu's image, and the document head's icons (the
 * tab's favicon, the 256×256 favicon and the apple-touch-icon).
 */
import { useEffect } from "react";
import { useColorMode } from "../../ui/theme.tsx";
import "./logos.css";
import { logoFor, useLogos, type LogoPlace } from "./api.ts";

/** The logo of `place` for the current colour mode, or `fallback` when none was uploaded. */
export function BrandLogo({ place, alt, fallback = null }: { place: "login" | "signup" | "interno"; alt: string; fallback?: React.ReactNode }) {
  const { mode } = useColorMode();
  const logo = logoFor(useLogos().data, place, mode);
  if (!logo) return <>{fallback}</>;
  return <img src={logo.url} alt={alt} className={`brand-logo brand-logo-${place}`} data-testid={`logo-${place}`} />;
}

/** The head links the logos replace: `rel` and `sizes` find (or make) the link. */
const HEAD_LINKS: { place: LogoPlace; rel: string; sizes?: string }[] = [
  { place: "favicon", rel: "icon" },
  { place: "favicon-256x256", rel: "icon", sizes: "256x256" },
  { place: "apple-touch-icon", rel: "apple-touch-icon" },
];

function headLink(rel: string, sizes: string | undefined): HTMLLinkElement {
  const selector = sizes ? `link[rel='${rel}'][sizes='${sizes}']` : `link[rel='${rel}']:not([sizes])`;
  let link = document.querySelector<HTMLLinkElement>(selector);
  if (!link) {
    link = document.createElement("link");
    link.rel = rel;
    if (sizes) link.setAttribute("sizes", sizes);
    document.head.appendChild(link);
  }
  return link;
}

/**
 * Puts the uploaded favicon (the dark one in dark mode when there is one), the 256×256 favicon and the
 * apple-touch-icon in the document's head; a destination with no logo keeps the page's own icon.
 */
export function useFavicon(): void {
  const { mode } = useColorMode();
  const logos = useLogos().data;
  const picked = HEAD_LINKS.map((h) => ({ ...h, logo: logoFor(logos, h.place, mode) }));
  const signature = picked.map((p) => p.logo?.url ?? "").join(" ");
  useEffect(() => {
    for (const { rel, sizes, logo } of picked) {
      if (!logo) continue;
      const link = headLink(rel, sizes);
      link.type = logo.mime;
      link.href = logo.url;
    }
  }, [signature]); // eslint-disable-line react-hooks/exhaustive-deps
}
