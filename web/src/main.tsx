/** SPA entry: configures the API client and renders the app. */
import "@aws-amplify/ui-react/styles.css";
import "./styles.css";
import "./i18n/index.ts";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { configureApi } from "./api/client.ts";
import { App } from "./App.tsx";

configureApi();
// The product's service worker (installable app, push notifications: docs/product/push.md#the-service-worker).
if ("serviceWorker" in navigator) void navigator.serviceWorker.register("/service-worker.js").catch(() => undefined);
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
