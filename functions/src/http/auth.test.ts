/**
 * Auth area through the real Lambda handler: login, due date, single login, refresh rotation and reuse,
 * logout, throttling, expired vs revoked tokens, version.
 */
import { describe, expect, it } from "vitest";
import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { SignJWT } from "jose";
import { api, makeUser } from "../../../test/helpers.ts";
import { companyWorld } from "../../../test/world.ts";
import { signingKey } from "@atende/shared/auth/tokens";
import { resetConfig } from "@atende/shared/config";
import { ddb, tableName } from "@atende/shared/db/client";
import { keys } from "@atende/shared/db/keys";
import { setUserOnline } from "@atende/shared/users/service";
import { registerSocket } from "@atende/shared/users/realtime-capture.testkit";
import { getSocketMember } from "@atende/shared/realtime/connections";

process.env.LOGIN_MAX_ATTEMPTS = "3";
process.env.LOGIN_MAX_ATTEMPTS_PER_IP = "6";
const ORIGIN_SECRET = "cloudfront-origin-secret-0123456789";
process.env.ORIGIN_VERIFY_SECRET = ORIGIN_SECRET;
process.env.LOGIN_WINDOW_SECONDS = "300";
resetConfig();

const w = companyWorld();

let ipSeq = 0;
const freshIp = () => `10.0.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

const jrt = (cookies: string[]) => cookies.find((c) => c.startsWith("jrt="));
const cookieValue = (setCookie: string) => setCookie.split(";")[0]; // "jrt=..."

async function rawUser(companyId: number, userId: number) {
  return (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.user(companyId, userId), ConsistentRead: true }))).Item!;
}

async function setDueDate(companyId: number, dueDate: string | null) {
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.company(companyId),
      UpdateExpression: "SET dueDate = :d",
      ExpressionAttributeValues: { ":d": dueDate },
    }),
  );
}

async function loginAs(u: { email: string; password: string }, ip = freshIp(), headers: Record<string, string> = {}) {
  return api("POST", "/api/auth/login", { body: { email: u.email, password: u.password }, ip, headers });
}

describe("POST /api/auth/login", () => {
  it("returns a token, the public user with company and settings, and an httpOnly strict refresh cookie", async () => {
    const { cid: companyId, admin } = await w.fresh({ name: "Loja Azul" });
    const res = await loginAs(admin);
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe("string");
    expect(res.body.user).toMatchObject({ id: admin.id, email: admin.email, profile: "admin", companyId, queues: [] });
    expect(res.body.user.company).toMatchObject({ id: companyId, name: "Loja Azul" });
    expect(res.body.user.company.dueDate).toEqual(expect.any(String));
    expect(res.body.user.company.settings).toContainEqual({ key: "CheckMsgIsGroup", value: "enabled" });
    expect(res.body.user).not.toHaveProperty("passwordHash");
    expect(res.body.user).not.toHaveProperty("tokenVersion");
    expect(res.body.user).not.toHaveProperty("refreshJti");
    expect(res.body).not.toHaveProperty("dueDateWarningDays");
    const cookie = jrt(res.cookies)!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/api\/auth/);
    expect(cookie).not.toMatch(/Secure/);
    const me = await api("GET", "/api/auth/me", { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: admin.id, company: { id: companyId } });
  });

  it("marks the refresh cookie Secure when the request came over https", async () => {
    const { admin } = await w.fresh();
    const res = await loginAs(admin, freshIp(), { "x-forwarded-proto": "https" });
    expect(res.status).toBe(200);
    expect(jrt(res.cookies)).toMatch(/; Secure/);
  });

  it("accepts the email in any letter case", async () => {
    const { admin } = await w.fresh();
    const res = await loginAs({ email: admin.email.toUpperCase(), password: admin.password });
    expect(res.status).toBe(200);
  });

  it("refuses a wrong password or an unknown email with ERR_INVALID_CREDENTIALS and sets no cookie", async () => {
    const { admin } = await w.fresh();
    const wrong = await loginAs({ email: admin.email, password: "nope-nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: "ERR_INVALID_CREDENTIALS" });
    expect(jrt(wrong.cookies)).toBeUndefined();
    const unknown = await loginAs({ email: "ghost@nowhere.test", password: "whatever" });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ error: "ERR_INVALID_CREDENTIALS" });
  });

  it("answers 400 with an error code for malformed bodies and does not log in", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const missing = await api("POST", "/api/auth/login", { body: { email: admin.email }, ip: freshIp() });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("ERR_VALIDATION");
    const badJson = await api("POST", "/api/auth/login", { body: "{not json", ip: freshIp() });
    expect(badJson.status).toBe(400);
    expect(badJson.body.error).toBe("ERR_INVALID_JSON");
    const wrongType = await api("POST", "/api/auth/login", { body: { email: 42, password: ["x"] }, ip: freshIp() });
    expect(wrongType.status).toBe(400);
    expect((await rawUser(companyId, admin.id)).tokenVersion).toBe(0);
  });

  it("refuses login with the due date when the company subscription is past due, and issues no session", async () => {
    const past = new Date(Date.now() - 2 * 86400000).toISOString();
    const { cid: companyId, admin } = await w.fresh({ dueDate: past });
    const res = await loginAs(admin);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "ERR_SUBSCRIPTION_EXPIRED", dueDate: past });
    expect(res.body).not.toHaveProperty("token");
    expect(jrt(res.cookies)).toBeUndefined();
    expect((await rawUser(companyId, admin.id)).tokenVersion).toBe(0);
  });

  it("adds dueDateWarningDays when fewer than 5 days remain", async () => {
    const soon = new Date(Date.now() + 3 * 86400000 + 3600000).toISOString();
    const { admin } = await w.fresh({ dueDate: soon });
    const res = await loginAs(admin);
    expect(res.status).toBe(200);
    expect(res.body.dueDateWarningDays).toBe(3);
    const later = await w.fresh({ dueDate: new Date(Date.now() + 5 * 86400000 + 3600000).toISOString() });
    const res2 = await loginAs(later.admin);
    expect(res2.status).toBe(200);
    expect(res2.body).not.toHaveProperty("dueDateWarningDays");
  });

  it("lets a company without a due date log in", async () => {
    const { admin } = await w.fresh({ dueDate: null });
    const res = await loginAs(admin);
    expect(res.status).toBe(200);
    expect(res.body.user.company.dueDate).toBeNull();
  });
});

describe("single login", () => {
  it("revokes the earlier session and tells the old tab through company-{id}-auth", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const agent = await makeUser(companyId, { profile: "user" });
    const otherTab = await registerSocket(companyId, { id: agent.id, profile: "user" });
    const bystander = await registerSocket(companyId, { id: admin.id, profile: "admin" });
    w.capture.clear();

    const first = await loginAs(agent);
    expect(first.status).toBe(200);
    // The token issued before any login (tokenVersion 0) is now revoked.
    expect((await api("GET", "/api/auth/me", { token: agent.token })).status).toBe(401);

    const second = await loginAs(agent);
    expect(second.status).toBe(200);
    const oldTab = await api("GET", "/api/auth/me", { token: first.body.token });
    expect(oldTab.status).toBe(401);
    expect(oldTab.body).toEqual({ error: "ERR_SESSION_EXPIRED" });
    expect((await api("GET", "/api/auth/me", { token: second.body.token })).status).toBe(200);
    // The first session's refresh cookie is dead too.
    const oldRefresh = await api("POST", "/api/auth/refresh_token", { cookies: [cookieValue(jrt(first.cookies)!)] });
    expect(oldRefresh.status).toBe(401);

    const authFrames = w.capture.frames.filter((f) => f.event === `company-${companyId}-auth`);
    expect(authFrames.every((f) => f.connectionId === otherTab)).toBe(true);
    expect(authFrames.some((f) => f.connectionId === bystander)).toBe(false);
    // The old tab is told why (tokenVersion 1), then its socket is closed: the second login reaches nothing there.
    expect(authFrames.map((f) => f.data.tokenVersion)).toEqual([1]);
    expect(authFrames[0].data).toEqual({ action: "update", user: { id: agent.id, email: agent.email, companyId }, tokenVersion: 1 });
    expect(await getSocketMember(companyId, otherTab)).toBeUndefined();
    expect(await getSocketMember(companyId, bystander)).toBeDefined();
  });
});

describe("tokens without exp or iat", () => {
  const forge = async (claims: Record<string, unknown>, sub: number, opts: { exp?: boolean; iat?: boolean; jti?: string }) => {
    let jwt = new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setSubject(String(sub));
    if (opts.jti) jwt = jwt.setJti(opts.jti);
    if (opts.iat) jwt = jwt.setIssuedAt();
    if (opts.exp) jwt = jwt.setExpirationTime("15m");
    return jwt.sign(await signingKey());
  };

  it("refuses an access token that never expires or has no issue time (401), and takes one that has both", async () => {
    const { admin } = await w.fresh();
    const claims = { cid: admin.companyId, tv: 0, profile: "admin", typ: "access" };
    for (const opts of [{ iat: true }, { exp: true }, {}]) {
      const r = await api("GET", "/api/auth/me", { token: await forge(claims, admin.id, opts) });
      expect({ opts, status: r.status, body: r.body }).toEqual({ opts, status: 401, body: { error: "ERR_SESSION_EXPIRED" } });
    }
    expect((await api("GET", "/api/auth/me", { token: await forge(claims, admin.id, { iat: true, exp: true }) })).status).toBe(200);
  });

  it("refuses a refresh token that never expires, even with the session's current jti", async () => {
    const { admin } = await w.fresh();
    await loginAs(admin);
    const stored = await rawUser(admin.companyId, admin.id);
    const jti = stored.refreshJti as string;
    const claims = { cid: admin.companyId, tv: stored.tokenVersion, typ: "refresh" };
    for (const opts of [{ iat: true, jti }, { exp: true, jti }]) {
      const token = await forge(claims, admin.id, opts);
      const r = await api("POST", "/api/auth/refresh_token", { cookies: [`jrt=${token}`] });
      expect({ opts, status: r.status, body: r.body }).toEqual({ opts, status: 401, body: { error: "ERR_SESSION_EXPIRED" } });
    }
    // Refused before the jti was compared: the session is intact, and the same claims with both times still refresh.
    expect((await rawUser(admin.companyId, admin.id)).refreshJti).toBe(jti);
    const good = await forge(claims, admin.id, { iat: true, exp: true, jti });
    expect((await api("POST", "/api/auth/refresh_token", { cookies: [`jrt=${good}`] })).status).toBe(200);
  });
});

describe("POST /api/auth/refresh_token", () => {
  it("rotates the refresh cookie and returns a new working access token", async () => {
    const { admin } = await w.fresh();
    const login = await loginAs(admin);
    const c1 = cookieValue(jrt(login.cookies)!);
    const r1 = await api("POST", "/api/auth/refresh_token", { cookies: [c1] });
    expect(r1.status).toBe(200);
    expect(r1.body.user).toMatchObject({ id: admin.id, company: { id: admin.companyId } });
    const c2 = cookieValue(jrt(r1.cookies)!);
    expect(c2).not.toBe(c1);
    expect((await api("GET", "/api/auth/me", { token: r1.body.token })).status).toBe(200);
    const r2 = await api("POST", "/api/auth/refresh_token", { cookies: [c2] });
    expect(r2.status).toBe(200);
  });

  it("revokes the whole session when a refresh token is used twice", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const login = await loginAs(admin);
    const c1 = cookieValue(jrt(login.cookies)!);
    const r1 = await api("POST", "/api/auth/refresh_token", { cookies: [c1] });
    expect(r1.status).toBe(200);
    const r2 = await api("POST", "/api/auth/refresh_token", { cookies: [cookieValue(jrt(r1.cookies)!)] });
    expect(r2.status).toBe(200);
    const c2 = cookieValue(jrt(r2.cookies)!);
    const versionBefore = (await rawUser(companyId, admin.id)).tokenVersion;

    // c1 was rotated away two steps ago: no longer the just-rotated token a second tab may still send.
    const reuse = await api("POST", "/api/auth/refresh_token", { cookies: [c1] });
    expect(reuse.status).toBe(401);
    expect(reuse.body).toEqual({ error: "ERR_SESSION_EXPIRED" });
    expect(jrt(reuse.cookies)).toMatch(/Max-Age=0/);
    expect((await rawUser(companyId, admin.id)).tokenVersion).toBe(versionBefore + 1);
    // Neither the legitimate holder's newer cookie nor its access token work any more.
    expect((await api("POST", "/api/auth/refresh_token", { cookies: [c2] })).status).toBe(401);
    expect((await api("GET", "/api/auth/me", { token: r2.body.token })).status).toBe(401);
  });

  it("lets two tabs refresh with the same cookie at once without logging the user out", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const login = await loginAs(admin);
    const c1 = cookieValue(jrt(login.cookies)!);
    const versionBefore = (await rawUser(companyId, admin.id)).tokenVersion;
    const [a, b] = await Promise.all([
      api("POST", "/api/auth/refresh_token", { cookies: [c1] }),
      api("POST", "/api/auth/refresh_token", { cookies: [c1] }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    // The second tab, a moment later, with the cookie the first one already rotated.
    const late = await api("POST", "/api/auth/refresh_token", { cookies: [c1] });
    expect(late.status).toBe(200);
    expect((await rawUser(companyId, admin.id)).tokenVersion).toBe(versionBefore);
    for (const r of [a, b, late]) {
      expect((await api("GET", "/api/auth/me", { token: r.body.token })).status).toBe(200);
      expect((await api("POST", "/api/auth/refresh_token", { cookies: [cookieValue(jrt(r.cookies)!)] })).status).toBe(200);
    }
  });

  it("lets a super user whose own company is past due log in and refresh (they extend due dates)", async () => {
    const past = new Date(Date.now() - 2 * 86400000).toISOString();
    const { admin } = await w.fresh({ dueDate: past, adminSuper: true });
    const res = await loginAs(admin);
    expect(res.status).toBe(200);
    const r = await api("POST", "/api/auth/refresh_token", { cookies: [cookieValue(jrt(res.cookies)!)] });
    expect(r.status).toBe(200);
  });

  it("answers 401 and clears the cookie when the cookie is missing or forged", async () => {
    const none = await api("POST", "/api/auth/refresh_token", {});
    expect(none.status).toBe(401);
    expect(jrt(none.cookies)).toMatch(/Max-Age=0/);
    const forged = await api("POST", "/api/auth/refresh_token", { cookies: ["jrt=eyJhbGciOiJIUzI1NiJ9.e30.bad"] });
    expect(forged.status).toBe(401);
    // An access token is not a refresh token.
    const { admin } = await w.fresh();
    const asCookie = await api("POST", "/api/auth/refresh_token", { cookies: [`jrt=${admin.token}`] });
    expect(asCookie.status).toBe(401);
  });

  it("refuses to refresh once the company's due date has passed", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const login = await loginAs(admin);
    const past = new Date(Date.now() - 86400000).toISOString();
    await setDueDate(companyId, past);
    const res = await api("POST", "/api/auth/refresh_token", { cookies: [cookieValue(jrt(login.cookies)!)] });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "ERR_SUBSCRIPTION_EXPIRED", dueDate: past });
  });
});

describe("access tokens", () => {
  it("answers 403 for an expired access token and 401 for a garbage one", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const expired = await new SignJWT({ cid: companyId, tv: 0, profile: "admin", typ: "access" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(admin.id))
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(await signingKey());
    const res = await api("GET", "/api/auth/me", { token: expired });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "ERR_SESSION_EXPIRED" });
    expect((await api("GET", "/api/auth/me", { token: "garbage" })).status).toBe(401);
    expect((await api("GET", "/api/auth/me", {})).status).toBe(401);
  });
});

describe("DELETE /api/auth/logout", () => {
  it("revokes the session, clears the cookie and marks the user offline", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const login = await loginAs(admin);
    await setUserOnline(companyId, admin.id, true);
    expect((await rawUser(companyId, admin.id)).online).toBe(true);
    const c1 = cookieValue(jrt(login.cookies)!);
    const out = await api("DELETE", "/api/auth/logout", { cookies: [c1], token: login.body.token });
    expect(out.status).toBe(204);
    expect(jrt(out.cookies)).toMatch(/Max-Age=0/);
    expect((await api("POST", "/api/auth/refresh_token", { cookies: [c1] })).status).toBe(401);
    expect((await api("GET", "/api/auth/me", { token: login.body.token })).status).toBe(401);
    expect((await rawUser(companyId, admin.id)).online).toBe(false);
  });

  it("answers 204 without a session and changes nothing", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const out = await api("DELETE", "/api/auth/logout", {});
    expect(out.status).toBe(204);
    expect((await rawUser(companyId, admin.id)).tokenVersion).toBe(0);
  });
});

describe("login throttling", () => {
  it("refuses an email from the IP that failed too often, but the right password from elsewhere still works", async () => {
    const { admin } = await w.fresh();
    const ip = freshIp();
    for (let i = 0; i < 3; i++) expect((await loginAs({ email: admin.email, password: "wrong-pass" }, ip)).status).toBe(401);
    const blocked = await loginAs(admin, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe("ERR_TOO_MANY_ATTEMPTS");
    expect(blocked.body.retryAfterSeconds).toBeGreaterThan(0);
    // Nobody can lock the (super) admin out by failing on purpose from their own address.
    expect((await loginAs(admin, freshIp())).status).toBe(200);
  });

  it("lets at most the limit of a parallel burst reach the password check", async () => {
    const { admin } = await w.fresh();
    const ip = freshIp();
    const burst = await Promise.all(Array.from({ length: 10 }, () => loginAs({ email: admin.email, password: "wrong-pass" }, ip)));
    // Each attempt is counted before the check, so no more than the limit (3) are ever verified.
    const verified = burst.filter((r) => r.status === 401).length;
    expect(verified).toBeGreaterThanOrEqual(1);
    expect(verified).toBeLessThanOrEqual(3);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(10 - verified);
  });

  it("does not lock a colleague on the same IP out when one person mistypes their password too often", async () => {
    const { cid: companyId, admin } = await w.fresh();
    const colleague = await makeUser(companyId);
    const office = freshIp();
    for (let i = 0; i < 3; i++) expect((await loginAs({ email: admin.email, password: "wrong-pass" }, office)).status).toBe(401);
    // The typist is throttled on their own account from this address...
    expect((await loginAs({ email: admin.email, password: "wrong-pass" }, office)).status).toBe(429);
    expect((await loginAs(admin, office)).status).toBe(429);
    // ...and the colleague behind the same NAT address logs in.
    expect((await loginAs(colleague, office)).status).toBe(200);
  });

  it("refuses further attempts from an IP after a spray of failures over many emails (the IP-wide limit)", async () => {
    const { admin } = await w.fresh();
    const ip = freshIp();
    for (let i = 0; i < 6; i++) expect((await loginAs({ email: `nobody${i}@x.test`, password: "wrong-pass" }, ip)).status).toBe(401);
    const blocked = await loginAs(admin, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe("ERR_TOO_MANY_ATTEMPTS");
    expect((await loginAs(admin, freshIp())).status).toBe(200);
  });

  it("counts by the viewer IP CloudFront sets only when CloudFront's origin secret comes with it", async () => {
    const { admin } = await w.fresh();
    const viaCloudFront = (viewerIp: string) => ({ "x-atende-origin": ORIGIN_SECRET, "x-atende-viewer-ip": viewerIp });
    for (let i = 0; i < 6; i++) {
      expect((await loginAs({ email: `cf${i}@x.test`, password: "wrong-pass" }, freshIp(), viaCloudFront("203.0.113.7"))).status).toBe(401);
    }
    expect((await loginAs(admin, freshIp(), viaCloudFront("203.0.113.7"))).status).toBe(429);
    expect((await loginAs(admin, freshIp(), viaCloudFront("2001:db8::5"))).status).toBe(200);
    // A direct caller (a guessed secret or none, naming an address or CloudFront's old header) is refused outright
    // (origin guard): nothing is counted, so the same source IP then logs in through CloudFront.
    const ip = freshIp();
    const forged = { "x-atende-origin": "guessed-secret-0123456789", "x-atende-viewer-ip": "198.51.100.1", "cloudfront-viewer-address": "198.51.100.2:1" };
    for (let i = 0; i < 3; i++) {
      forged["x-atende-viewer-ip"] = `198.51.100.${i + 10}`;
      const res = await loginAs({ email: `forge${i}@x.test`, password: "wrong-pass" }, ip, forged);
      expect(res).toMatchObject({ status: 403, body: { error: "ERR_NO_PERMISSION" } });
    }
    expect((await loginAs(admin, ip, { ...forged, "x-atende-origin": "" })).status).toBe(403);
    expect((await loginAs(admin, ip)).status).toBe(200);
  });

  it("ignores a bucket whose window is over even before TTL removes it, and starts a new window", async () => {
    const { admin } = await w.fresh();
    const ip = freshIp();
    const past = Math.floor(Date.now() / 1000) - 10;
    const pair = keys.throttle("pair", `${admin.email.toLowerCase()}|${ip}`);
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...pair, attempts: 99, expiresAt: past } }));
    expect((await loginAs({ email: admin.email, password: "wrong-pass" }, ip)).status).toBe(401);
    const bucket = (await ddb().send(new GetCommand({ TableName: tableName(), Key: pair, ConsistentRead: true }))).Item!;
    expect(bucket.attempts).toBe(1);
    expect(bucket.expiresAt).toBeGreaterThan(past);
    expect((await loginAs(admin, ip)).status).toBe(200);
  });

  it("clears the email's count after a successful login", async () => {
    const { admin } = await w.fresh();
    const ip = freshIp();
    for (let i = 0; i < 2; i++) await loginAs({ email: admin.email, password: "wrong-pass" }, ip);
    expect((await loginAs(admin, ip)).status).toBe(200);
    const pair = (await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.throttle("pair", `${admin.email.toLowerCase()}|${ip}`), ConsistentRead: true }))).Item;
    expect(pair).toBeUndefined();
    for (let i = 0; i < 2; i++) await loginAs({ email: admin.email, password: "wrong-pass" }, freshIp());
    expect((await loginAs(admin, freshIp())).status).toBe(200);
  });
});

describe("GET /api/version", () => {
  it("answers the product version without a token", async () => {
    const res = await api("GET", "/api/version");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: "5.3.5" });
  });
});
