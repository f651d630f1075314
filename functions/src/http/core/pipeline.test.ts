/**
 * The pipeline's own behaviour, on a throw-away route list: request validation, the error table's statuses, and the
 * response contract check that turns every integration test into a schema check (a wrong shape fails).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRoutes } from "@atende/shared/contract";
import { AppError } from "@atende/shared/errors";
import { httpEvent } from "../../../../test/helpers.ts";
import { companyWorld } from "../../../../test/world.ts";
import type { RouteDef } from "../routes.ts";
import { areaHandler } from "./http.ts";

const w = companyWorld();

const ops = defineRoutes("plans", {
  "GET /api/plans/list": { auth: "public", response: z.array(z.object({ id: z.number().int(), name: z.string() })) },
  "POST /api/plans/list": { auth: "public", body: z.object({ name: z.string().min(2, "Too Short!") }), response: z.object({ id: z.number().int() }) },
});
const defs = Object.values(ops) as RouteDef[];

function build(list: () => Promise<unknown>) {
  return areaHandler("plans", { "GET /api/plans/list": list, "POST /api/plans/list": async (ctx: { body: { name: string } }) => {
    if (ctx.body.name === "taken") throw new AppError("ERR_CONFLICT");
    return { id: 1 };
  } } as never, defs);
}

const call = async (h: ReturnType<typeof build>, method: "GET" | "POST", body?: unknown) => {
  const res = await h(httpEvent(method, "/api/plans/list", { body }) as never);
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
};

describe("HTTP pipeline", () => {
  it("answers a handler's value that matches its response schema", async () => {
    const res = await call(build(async () => [{ id: 1, name: "Plano" }]), "GET");
    expect(res).toEqual({ status: 200, body: [{ id: 1, name: "Plano" }] });
  });

  it("fails a test run when a handler answers a shape its contract does not allow", async () => {
    const res = await call(build(async () => [{ id: "1", title: "Plano" }]), "GET");
    expect(res.status).toBe(500);
    expect(res.body.error).toBe("ERR_INTERNAL");
    expect(res.body.contractIssues.map((i: { path: string }) => i.path)).toEqual(["0.id", "0.name"]);
  });

  it("validates the body with the contract (400 ERR_VALIDATION with fields) and maps AppError codes through the table", async () => {
    const h = build(async () => []);
    expect(await call(h, "POST", { name: "x" })).toEqual({ status: 400, body: { error: "ERR_VALIDATION", fields: [{ path: "name", message: "Too Short!" }] } });
    expect(await call(h, "POST", "{not json")).toEqual({ status: 400, body: { error: "ERR_INVALID_JSON" } });
    expect(await call(h, "POST", { name: "taken" })).toEqual({ status: 409, body: { error: "ERR_CONFLICT" } });
    expect(await call(h, "POST", { name: "fine" })).toEqual({ status: 200, body: { id: 1 } });
  });
});

describe("plan-gated operations", () => {
  const gated = defineRoutes("plans", { "GET /api/plans/list": { auth: "user", plan: "useKanban", response: z.object({ ok: z.boolean() }) } });
  let reads = 0;
  const h = areaHandler("plans", { "GET /api/plans/list": async () => ({ ok: !!++reads }) } as never, Object.values(gated) as RouteDef[]);

  it("answers a company whose plan has the flag, and refuses one whose plan has it off with 403 before the handler runs", async () => {
    const on = await w.fresh();
    const off = await w.fresh({ planFlags: { useKanban: false } });
    const get = async (token: string) => {
      const res = await h(httpEvent("GET", "/api/plans/list", { token }) as never);
      return { status: res.statusCode, body: JSON.parse(res.body ?? "null") };
    };
    expect(await get(on.admin.token)).toEqual({ status: 200, body: { ok: true } });
    expect(reads).toBe(1);
    expect(await get(off.admin.token)).toEqual({ status: 403, body: { error: "ERR_PLAN_FEATURE_DISABLED" } });
    expect(reads).toBe(1);
  });
});
