/** The platform's logos where they show: the login page's and the side menu's image, and the tab's favicon. */
import { useEffect } from "react";
import { useColorMode } from "../../ui/theme.tsx";
import "./logos.css";
import { logoFor, useLogos } from "./api.ts";

/** The logo of `place` for the current colour mode, or `fallback` when none was uploaded. */
export function BrandLogo({ place, alt, fallback = null }: { place: "login" | "interno"; alt: string; fallback?: React.ReactNode }) {
  const { mode } = useColorMode();
  const logo = logoFor(useLogos().data, place, mode);
  if (!logo) return <>{fallback}</>;
  return <img src={logo.url} alt={alt} className={`brand-logo brand-logo-${place}`} data-testid={`logo-${place}`} />;
}

/** Puts the uploaded favicon (the dark one in dark mode when there is one) on the browser tab. */
export function useFavicon(): void {
  const { mode } = useColorMode();
  const logo = logoFor(useLogos().data, "favicon", mode);
  useEffect(() => {
    if (!logo) return;
    let link = document.querySelector<HTMLLinkElement>("link[rel='icon']");
    if (!link) {
      link = document.createElement("link");
      link.rel = "icon";
      document.head.appendChild(link);
    }
    link.type = logo.mime;
    link.href = logo.url;
  }, [logo?.url, logo?.mime]);
}
