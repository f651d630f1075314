/**
 * /signup (docs/product/companies.md#sign-up): company name, email, phone with the mask (99) 99999-9999, password
 * and the plan (from `GET /api/plans/register`, with the disabled placeholder 'Selecione seu plano de assinatura').
 * `?companyId=` is read (kept for the invite links of the old system; the new company is always created anew).
 * While the platform's `allowregister` is not `enabled` the page goes to /login. Success goes to /login.
 */
import { Button, Heading, Link as ALink, Loader, SelectField, TextField } from "@aws-amplify/ui-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router-dom";
import { call } from "../../api/operations.ts";
import { errorMessage } from "../../api/errors.ts";
import { PasswordField } from "../../ui/PasswordField.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { PublicFormCard } from "./PublicFormCard.tsx";

/** Formats up to 11 digits as (99) 99999-9999 while typing. */
export function maskPhone(raw: string): string {
  const d = raw.replace(/\D+/g, "").slice(0, 11);
  if (d.length <= 2) return d.length ? `(${d}` : "";
  if (d.length <= 7) return `(${d.slice(0, 2)}) ${d.slice(2)}`;
  return `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`;
}

type Field = "name" | "email" | "password" | "planId";

export function SignupPage() {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const companyId = params.get("companyId") ?? undefined;
  const allow = useQuery({
    queryKey: ["publicSetting", "allowregister"],
    queryFn: async () => (await call("GET /api/settings/{key}", { params: { key: "allowregister" }, noSessionRule: true })).value,
  });
  const plans = useQuery({ queryKey: ["plans", "register"], queryFn: () => call("GET /api/plans/register", { noSessionRule: true }), enabled: allow.data === "enabled" });
  const [f, setF] = useState({ name: "", email: "", phone: "", password: "", planId: "" });
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const errors: Partial<Record<Field, string>> = {
    name: !f.name.trim() ? t("signup.required") : f.name.trim().length < 2 ? t("signup.tooShort") : f.name.trim().length > 50 ? t("signup.tooLong") : undefined,
    email: !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(f.email.trim()) ? t("signup.invalidEmail") : undefined,
    password: !f.password ? t("signup.required") : f.password.length < 5 ? t("signup.tooShort") : f.password.length > 50 ? t("signup.tooLong") : undefined,
    planId: !f.planId ? t("signup.required") : undefined,
  };
  const err = (k: Field) => (tried ? errors[k] : undefined);

  if (allow.isPending) return <Loader />;
  if (allow.data !== "enabled") return <Navigate to="/login" replace />;

  const submit = async () => {
    setTried(true);
    if (busy || Object.values(errors).some(Boolean)) return;
    setBusy(true);
    try {
      await call("POST /api/companies/cadastro", {
        body: { name: f.name.trim(), email: f.email.trim(), phone: f.phone, password: f.password, planId: Number(f.planId), recurrence: "MENSAL", companyId },
        noSessionRule: true,
      });
      toast.success(t("signup.done"));
      navigate("/login", { replace: true });
    } catch (e) {
      toast.error(errorMessage(e, t));
      setBusy(false);
    }
  };

  return (
    <PublicFormCard onSubmit={() => void submit()} logo="signup">
            <Heading level={1} className="login-title">
              {t("signup.title")}
            </Heading>
            <TextField label={t("signup.name")} name="name" autoComplete="organization" required autoFocus value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} hasError={!!err("name")} errorMessage={err("name")} />
            <TextField label={t("signup.email")} name="email" type="email" autoComplete="email" required value={f.email} onChange={(e) => setF({ ...f, email: e.target.value })} hasError={!!err("email")} errorMessage={err("email")} />
            <TextField label={t("signup.phone")} name="phone" type="tel" autoComplete="tel" placeholder="(99) 99999-9999" value={f.phone} onChange={(e) => setF({ ...f, phone: maskPhone(e.target.value) })} />
            <PasswordField label={t("signup.password")} name="password" autoComplete="new-password" required value={f.password} onChange={(e) => setF({ ...f, password: e.target.value })} hasError={!!err("password")} errorMessage={err("password")} />
            <SelectField label={t("signup.plan")} name="planId" value={f.planId} onChange={(e) => setF({ ...f, planId: e.target.value })} hasError={!!err("planId")} errorMessage={err("planId")}>
              <option value="" disabled>
                {t("signup.planPlaceholder")}
              </option>
              {(plans.data ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {t("signup.planOption", { name: p.name, users: p.users, connections: p.connections, queues: p.queues, value: p.value.toLocaleString("pt-BR", { style: "currency", currency: "BRL" }) })}
                </option>
              ))}
            </SelectField>
            <Button type="submit" variation="primary" isFullWidth isLoading={busy}>
              {t("signup.submit")}
            </Button>
            <ALink as={Link} to="/login">
              {t("signup.toLogin")}
            </ALink>
    </PublicFormCard>
  );
}
