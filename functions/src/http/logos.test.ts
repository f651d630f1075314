/**
 * The platform's logos (docs/product/logos.md): only super users upload; the list is public (the login page); only
 * PNG, ICO or SVG by their bytes; an SVG comes back with only drawing left; the same logos for every company; every
 * connected user of every company hears of a new logo.
 */
import { describe, expect, it } from "vitest";
import { getMedia } from "@atende/shared/storage/media";
import { api, multipartBody } from "../../../test/helpers.ts";
import { companyWorld, useLocalAws } from "../../../test/world.ts";
import { registerSocket } from "../../../shared/src/users/realtime-capture.testkit.ts";

useLocalAws({ bucket: "atende-logos-test" });
const w = companyWorld({ agents: [{ name: "Ana" }, { name: "Sofia", profile: "supervisor" }], other: true, root: true });

const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
const ico = Buffer.from("0000010001001010000001002000", "hex");
const upload = (token: string | undefined, ref: string | null, name: string, type: string, data: Buffer) =>
  api("POST", `/api/settings/media-upload${ref ? `?ref=${ref}` : ""}`, { token, ...multipartBody([{ field: "file", name, type, data }]) });
const logos = async () => (await api("GET", "/api/logos")).body.logos as { ref: string; url: string; mime: string }[];
/** The stored object of a logo link (the presigned URL's key). */
const storedOf = (url: string) => getMedia(decodeURIComponent(new URL(url).pathname.split("/").slice(2).join("/")));

describe("logos", () => {
  it("lets only super users upload, and shows every company and the login page (no token) the same logos", async () => {
    for (const u of [w.admin, w.agents[0], w.agents[1], w.other.admin]) expect((await upload(u.token, "login", "l.png", "image/png", png)).status).toBe(403);
    expect((await upload(undefined, "login", "l.png", "image/png", png)).status).toBe(401);
    expect(await logos()).toEqual([]);

    const ok = await upload(w.root.token, "login", "marca.png", "image/png", png);
    expect(ok).toMatchObject({ status: 200, body: { mensagem: "Arquivo Anexado", logo: { ref: "login", mime: "image/png" } } });
    expect(await upload(w.root.token, "favicon", "f.ico", "image/x-icon", ico)).toMatchObject({ status: 200, body: { logo: { mime: "image/x-icon" } } });
    const list = await logos();
    expect(list.map((l) => l.ref).sort()).toEqual(["favicon", "login"]);
    expect(Buffer.compare(await storedOf(list.find((l) => l.ref === "login")!.url), png)).toBe(0);
    // Not company data: another company's admin reads the same list.
    expect((await api("GET", "/api/logos", { token: w.other.admin.token })).body.logos.map((l: { ref: string }) => l.ref).sort()).toEqual(["favicon", "login"]);

    // A new one replaces the old one of its destination.
    const again = await upload(w.root.token, "login", "outra.png", "image/png", Buffer.concat([png, Buffer.from("00", "hex")]));
    expect(again.status).toBe(200);
    expect((await logos()).filter((l) => l.ref === "login")).toHaveLength(1);
  });

  it("refuses what is not PNG, ICO or SVG by its bytes, a missing file or destination, and a file past 1 MB, storing nothing", async () => {
    const refs = async () => (await logos()).map((l) => l.ref).sort();
    const before = await refs();
    const gif = Buffer.from("47494638396101000100", "hex");
    const asPng = await upload(w.root.token, "interno", "falso.png", "image/png", gif);
    expect(asPng).toMatchObject({ status: 400, body: { error: "ERR_VALIDATION", fields: [{ path: "file", message: "Use somente arquivos em formato PNG, ICO ou SVG!" }] } });
    expect((await upload(w.root.token, "interno", "pagina.svg", "image/svg+xml", Buffer.from("<html><script>alert(1)</script></html>"))).status).toBe(400);
    expect((await upload(w.root.token, null, "l.png", "image/png", png)).status).toBe(400);
    expect((await upload(w.root.token, "rodape", "l.png", "image/png", png)).status).toBe(400);
    const noFile = await api("POST", "/api/settings/media-upload?ref=interno", { token: w.root.token, ...multipartBody([]) });
    expect(noFile).toMatchObject({ status: 400, body: { fields: [{ path: "file", message: "Escolha um arquivo!" }] } });
    const big = Buffer.concat([png, Buffer.alloc(1024 * 1024)]);
    expect(await upload(w.root.token, "interno", "grande.png", "image/png", big)).toMatchObject({ status: 400, body: { fields: [{ path: "size" }] } });
    expect(await refs()).toEqual(before);
  });

  it("keeps only the drawing of an SVG: no script, event handler, foreignObject or outside reference", async () => {
    const evil = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)">
  <script>alert(document.cookie)</script>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#0a0"/></linearGradient></defs>
  <circle cx="5" cy="5" r="4" fill="url(#g)" onclick="alert(2)"/>
  <rect width="2" height="2" fill="url(https://evil.example/x.svg#p)"/>
  <foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:alert(3)"></iframe></foreignObject>
  <a href="javascript:alert(4)"><text x="1" y="9">oi</text></a>
  <image href="https://evil.example/track.png" width="1" height="1"/>
  <use xlink:href="https://evil.example/sprite.svg#icon"/>
  <use href="#g"/>
  <style>@import url(https://evil.example/x.css);</style>
</svg>`;
    const res = await upload(w.root.token, "interno-dark", "marca.svg", "image/svg+xml", Buffer.from(evil));
    expect(res).toMatchObject({ status: 200, body: { logo: { ref: "interno-dark", mime: "image/svg+xml" } } });
    const stored = (await storedOf(res.body.logo.url)).toString("utf8");
    expect(stored).toMatch(/^<svg[\s>]/);
    expect(stored).toContain("<circle");
    expect(stored).toContain('fill="url(#g)"');
    for (const gone of ["<script", "onload", "onclick", "foreignObject", "iframe", "javascript:", "evil.example", "<style", "@import"]) expect(stored).not.toContain(gone);
  });

  it("takes the sign-up page (light and dark), the 256×256 favicon and the apple-touch-icon as destinations", async () => {
    for (const ref of ["signup", "signup-dark", "favicon-256x256", "apple-touch-icon"]) {
      expect(await upload(w.root.token, ref, `${ref}.png`, "image/png", png)).toMatchObject({ status: 200, body: { logo: { ref, mime: "image/png" } } });
    }
    const list = await logos();
    for (const ref of ["signup", "signup-dark", "favicon-256x256", "apple-touch-icon"]) expect(Buffer.compare(await storedOf(list.find((l) => l.ref === ref)!.url), png)).toBe(0);
    expect((await upload(w.root.token, "apple-touch-icon-dark", "a.png", "image/png", png)).status).toBe(400);
  });

  it("tells every connected user of every company which destination changed (company-{its id}-logo), and nobody on a refused upload", async () => {
    const agent = await registerSocket(w.cid, { id: w.agents[0].id, profile: "user" });
    const theirs = await registerSocket(w.other.companyId, { id: w.other.admin.id, profile: "admin" });
    const superSock = await registerSocket(w.root.companyId, { id: w.root.id, profile: "admin", super: true });
    w.capture.clear();
    expect((await upload(w.admin.token, "interno", "m.png", "image/png", png)).status).toBe(403);
    expect((await upload(w.root.token, "interno", "m.gif", "image/png", Buffer.from("47494638396101000100", "hex"))).status).toBe(400);
    expect(w.capture.frames.filter((f) => f.event.endsWith("-logo"))).toEqual([]);

    const ok = await upload(w.root.token, "interno", "m.png", "image/png", png);
    expect(ok.status).toBe(200);
    const frameOf = (sock: string) => w.capture.frames.find((f) => f.connectionId === sock);
    expect(frameOf(agent)).toEqual({ connectionId: agent, event: `company-${w.cid}-logo`, data: { ref: "interno", updatedAt: ok.body.logo.updatedAt } });
    expect(frameOf(theirs)?.event).toBe(`company-${w.other.companyId}-logo`);
    expect(frameOf(superSock)?.event).toBe(`company-${w.root.companyId}-logo`);
  });
});
