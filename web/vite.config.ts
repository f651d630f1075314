/**
 * Vite build of the SPA (`web/dist`). The local gateway serves it at the same origin as `/api` and `/ws`;
 * `npm run dev -w web` proxies both to `ATENDE_API` (default http://localhost:3000).
 */
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import pkg from "./package.json" with { type: "json" };

const api = process.env.ATENDE_API ?? "http://localhost:3000";

export default defineConfig({
  plugins: [react()],
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: {
    proxy: {
      "/api": { target: api, changeOrigin: false },
      "/ws": { target: api.replace(/^http/, "ws"), ws: true },
    },
  },
});
