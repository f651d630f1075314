/** Build-time constant: the app version from web/package.json (5.3.5, the product's version). */
declare const __APP_VERSION__: string;
