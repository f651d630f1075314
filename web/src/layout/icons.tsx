/** Small inline SVG icons of the top bar (no icon font; they follow `currentColor`). */
const base = { width: 22, height: 22, viewBox: "0 0 24 24", fill: "none", stroke: "currentColor", strokeWidth: 2, strokeLinecap: "round", strokeLinejoin: "round" } as const;

/** Bell (unread-tickets popover). */
export function BellIcon() {
  return (
    <svg {...base} aria-hidden="true" focusable="false">
      <path d="M18 8a6 6 0 1 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
      <path d="M13.73 21a2 2 0 0 1-3.46 0" />
    </svg>
  );
}

/** Speaker with 0, 1 or 2 waves, or crossed out when `level` is 0 (volume 0..1). */
export function SpeakerIcon({ level }: { level: number }) {
  return (
    <svg {...base} aria-hidden="true" focusable="false">
      <path d="M11 5 6 9H2v6h4l5 4V5z" fill="currentColor" />
      {level === 0 ? (
        <>
          <line x1="23" y1="9" x2="17" y2="15" />
          <line x1="17" y1="9" x2="23" y2="15" />
        </>
      ) : (
        <>
          <path d="M15.54 8.46a5 5 0 0 1 0 7.07" />
          {level > 0.5 && <path d="M19.07 4.93a10 10 0 0 1 0 14.14" />}
        </>
      )}
    </svg>
  );
}

/** A person (account menu: profile). */
export function UserIcon() {
  return (
    <svg {...base} aria-hidden="true" focusable="false">
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21a8 8 0 0 1 16 0" />
    </svg>
  );
}

/** Circular arrow (refresh what is on screen). */
export function RefreshIcon() {
  return (
    <svg {...base} aria-hidden="true" focusable="false">
      <path d="M21 12a9 9 0 1 1-2.64-6.36" />
      <path d="M21 3v6h-6" />
    </svg>
  );
}
