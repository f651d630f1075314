/**
 * The router: public routes (/login; /signup and /forgetpsw when their features
 * exist) redirect an authenticated user to "/"; private routes redirect an unauthenticated user to /login.
 * Feature routes come from `features/registry.tsx`, each behind `RequireAccess` with the access its feature declares
 * (e.g. an agent typing /users is sent to /).
 */
import type { ReactNode } from "react";
import { BrowserRouter, Navigate, Route, Routes } from "react-router-dom";
import { useSession } from "../api/session.ts";
import { HomePage } from "../features/home/HomePage.tsx";
import { LoginPage } from "../features/auth/LoginPage.tsx";
import { RequireAccess } from "../features/access.tsx";
import { features } from "../features/registry.tsx";
import { AppShell } from "../layout/AppShell.tsx";

/** Renders its children only without a session; otherwise goes to "/". */
export function PublicOnly({ children }: { children: ReactNode }) {
  return useSession() ? <Navigate to="/" replace /> : children;
}

/** Renders its children only with a session; otherwise goes to /login. */
export function PrivateOnly({ children }: { children: ReactNode }) {
  return useSession() ? children : <Navigate to="/login" replace />;
}

export function AppRoutes() {
  return (
    <BrowserRouter>
      <Routes>
        <Route
          path="/login"
          element={
            <PublicOnly>
              <LoginPage />
            </PublicOnly>
          }
        />
        {features.flatMap((f) => (f.publicRoutes ?? []).map((r) => <Route key={`${f.id}:${r.path}`} path={r.path} element={r.element} />))}
        <Route
          element={
            <PrivateOnly>
              <AppShell />
            </PrivateOnly>
          }
        >
          <Route index element={<HomePage />} />
          {features.flatMap((f) =>
            f.routes.map((r) => (
              <Route
                key={`${f.id}:${r.path}`}
                path={r.path}
                element={
                  <>
                    {r.early}
                    <RequireAccess access={r.access ?? f.access}>{r.element}</RequireAccess>
                  </>
                }
              />
            )),
          )}
          <Route path="*" element={<Navigate to="/" replace />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
