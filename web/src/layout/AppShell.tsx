/**
 * The private app shell (side menu and top bar): top bar with the drawer toggle, greeting
 * (user and company name; 'Ativo até {date}' for admins), language switch, theme toggle, notification volume
 * (`VolumeControl`), refresh (refetches what is on screen), the features' top-bar popovers (`topBar` slot: the
 * tickets' unread popover), profile edit (`ProfileDialog`) and logout; side menu built from the feature registry (profile, super flag and plan flags), ending with logout and, for admins, the
 * version. The drawer is open by default above 1200 px and is a temporary overlay below 600 px.
 */
import { can } from "@atende/shared/access/permissions";
import { ExternalLink, Menu, } from "lucide-react";
import { Badge, Button, Flex, Text, View } from "@aws-amplify/ui-react";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { NavLink, Outlet, useLocation } from "react-router-dom";
import { call } from "../api/operations.ts";
import { usePlanFlags, useVersion, type PlanFlags } from "../api/company.ts";
import { clearSession, useSession, type SessionUser } from "../api/session.ts";
import { mayAccess } from "../features/access.tsx";
import { features } from "../features/registry.tsx";
import { useSlot } from "../features/slots.ts";
import type { Feature, MenuGroup } from "../features/types.ts";
import { realtime } from "../realtime/socket.ts";
import { formatDate } from "../ui/format.ts";
import { RefreshIcon, UserIcon } from "./icons.tsx";
import { ProfileDialog } from "./ProfileDialog.tsx";
import { ServiceBanner } from "./ServiceBanner.tsx";
import { LanguageSelect, ThemeToggle } from "./ShellTools.tsx";
import "./topbar.css";
import { VolumeControl } from "./VolumeControl.tsx";
import { BrandLogo, useFavicon } from "../features/logos/Logo.tsx";

const GROUPS: MenuGroup[] = ["attendance", "management", "administration"];

function useWidth() {
  const [w, setW] = useState(() => window.innerWidth);
  useEffect(() => {
    const on = () => setW(window.innerWidth);
    window.addEventListener("resize", on);
    return () => window.removeEventListener("resize", on);
  }, []);
  return w;
}

/** The menu entries this user may see: the features whose declared access lets them in (`features/access.tsx`). */
export function visibleMenu(user: SessionUser, flags: PlanFlags | undefined): Feature[] {
  return features.filter((f) => f.menu && mayAccess(user, f.access, flags)).sort((a, b) => a.menu!.order - b.menu!.order);
}

/** Logs out: tells the API (revokes the refresh cookie), then clears local data. */
export async function logout(): Promise<void> {
  realtime.stop();
  try {
    await call("DELETE /api/auth/logout", { noSessionRule: true });
  } catch {
    /* the local session is cleared anyway */
  }
  clearSession();
}

export function AppShell() {
  const session = useSession()!;
  const user = session.user;
  const { t } = useTranslation();
  useFavicon();
  const qc = useQueryClient();
  const topBar = useSlot("topBar");
  const width = useWidth();
  const temporary = width < 600;
  const [open, setOpen] = useState(() => window.innerWidth > 1200);
  const [profileOpen, setProfileOpen] = useState(false);
  const location = useLocation();
  const plan = usePlanFlags(user.companyId);
  const version = useVersion();
  const admin = can(user, "drawer-admin-items:view");
  const items = visibleMenu(user, plan.data);

  useEffect(() => {
    setOpen(width > 1200);
  }, [width > 1200]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (temporary) setOpen(false);
  }, [location.pathname, temporary]);

  const displayName = temporary && user.name.length > 10 ? `${user.name.slice(0, 10)}…` : user.name;
  const doLogout = async () => {
    await logout();
    qc.clear();
  };

  return (
    <div className={`shell ${open ? "drawer-open" : ""} ${temporary ? "drawer-temporary" : ""}`}>
      <a className="skip-link" href="#main">
        {t("shell.skipToContent")}
      </a>
      <header className="topbar">
        <Button
          variation="link"
          className="icon-button"
          aria-label={open ? t("shell.closeMenu") : t("shell.openMenu")}
          aria-expanded={open}
          aria-controls="side-menu"
          onClick={() => setOpen((o) => !o)}
        >
          <Menu size={20} aria-hidden="true" />
        </Button>
        <div className="greeting" data-testid="greeting">
          <Text as="span" className="greeting-main">
            {t("shell.greeting", { name: displayName, company: user.company?.name ?? "" })}
          </Text>
          {admin && user.company?.dueDate && (
            <Text as="span" className="greeting-due" data-testid="active-until">
              {t("shell.activeUntil", { date: formatDate(user.company.dueDate) })}
            </Text>
          )}
        </div>
        <Flex alignItems="center" gap="0.5rem" className="topbar-actions">
          <LanguageSelect short={temporary} />
          <ThemeToggle />
          <button
            type="button"
            className="topbar-icon topbar-refresh"
            onClick={() => void qc.refetchQueries({ type: "active" })}
            aria-label={t("shell.refresh")}
            title={t("shell.refresh")}
            data-testid="refresh-button"
          >
            <RefreshIcon />
          </button>
          <VolumeControl />
          {topBar.map(({ id, Component }) => (
            <Component key={id} />
          ))}
          <button type="button" className="topbar-icon" onClick={() => setProfileOpen(true)} aria-label={t("shell.profile")} title={t("shell.profile")} data-testid="profile-button">
            <UserIcon />
          </button>
          <Button size="small" className="topbar-logout" onClick={doLogout}>
            {t("session.logout")}
          </Button>
        </Flex>
      </header>
      {temporary && open && <div className="scrim" onClick={() => setOpen(false)} aria-hidden="true" />}
      <nav id="side-menu" className="sidemenu" aria-label={t("shell.mainMenu")} hidden={!open}>
        <div className="sidemenu-scroll">
          <div className="sidemenu-logo">
            <BrandLogo place="interno" alt={t("app.name")} />
          </div>
          {GROUPS.map((g) => {
            const group = items.filter((f) => f.menu!.group === g);
            if (!group.length) return null;
            return (
              <div key={g} className="menu-group">
                <Text as="div" className="menu-group-title">
                  {t(`shell.${g}`)}
                </Text>
                <ul>
                  {group.map((f) => {
                    const B = f.menu!.Badge;
                    return (
                      <li key={f.id}>
                        {f.menu!.newTab ? (
                          <a href={f.menu!.path} target="_blank" rel="noopener" className="menu-item">
                            <span>{t(f.menu!.labelKey)}</span>
                            <span className="sr-only"> ({t("shell.opensInNewTab")})</span>
                            <ExternalLink size={14} aria-hidden="true" className="menu-external" />
                          </a>
                        ) : (
                          <NavLink to={f.menu!.path} className={({ isActive }) => `menu-item ${isActive ? "active" : ""}`}>
                            <span>{t(f.menu!.labelKey)}</span>
                            {B && <B />}
                          </NavLink>
                        )}
                      </li>
                    );
                  })}
                </ul>
              </div>
            );
          })}
          <ul className="menu-end">
            <li>
              <button type="button" className="menu-item" onClick={doLogout}>
                {t("session.logout")}
              </button>
            </li>
          </ul>
          {admin && (
            <View className="menu-version" data-testid="app-version">
              <Badge size="small">{t("shell.version", { version: version.data?.version ?? __APP_VERSION__ })}</Badge>
            </View>
          )}
        </div>
      </nav>
      <ServiceBanner />
      <main id="main" className="content" tabIndex={-1}>
        <Outlet />
      </main>
      <ProfileDialog open={profileOpen} onClose={() => setProfileOpen(false)} />
    </div>
  );
}
