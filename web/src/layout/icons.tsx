/** The top bar's icons, from the app's one icon set (lucide; they follow `currentColor`). */
import { Bell, RotateCw, User, Volume1, Volume2, VolumeX } from "lucide-react";

const SIZE = 22;

/** Bell (unread-tickets popover). */
export const BellIcon = () => <Bell size={SIZE} aria-hidden="true" focusable="false" />;

/** Speaker with one or two waves, or crossed out when `level` is 0 (volume 0..1). */
export function SpeakerIcon({ level }: { level: number }) {
  const Icon = level === 0 ? VolumeX : level > 0.5 ? Volume2 : Volume1;
  return <Icon size={SIZE} aria-hidden="true" focusable="false" />;
}

/** A person (account menu: profile). */
export const UserIcon = () => <User size={SIZE} aria-hidden="true" focusable="false" />;

/** Circular arrow (refresh what is on screen). */
export const RefreshIcon = () => <RotateCw size={SIZE} aria-hidden="true" focusable="false" />;
