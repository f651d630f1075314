/** Build-time constant: the app version from web/package.json (attendance.md §9: 5.3.5). */
declare const __APP_VERSION__: string;
