/**
 * Contacts' "Última interação" (the Contacts page's column): a customer's message moves the contact's
 * `lastInteractionAt` to the message's time, live (`contact` update frame); a burst within a minute costs no further
 * write; an older (history) message never moves it back.
 */
import { describe, expect, it } from "vitest";
import { handleBaileysEvent, type IngestContext } from "../ingest/index.ts";
import { freshCompanyId, storedState } from "../ingest/testkit.ts";
import { registerSocket } from "../users/realtime-capture.testkit.ts";
import { companyWorld } from "../../../test/world.ts";

const w = companyWorld();

const T0 = 1767366759; // 2026-01-02T15:12:39Z, WhatsApp seconds
const says = (ctx: IngestContext, id: string, body: string, ts: number, type = "notify") =>
  handleBaileysEvent(ctx, "messages.upsert", {
    type,
    messages: [{ key: { remoteJid: "5511912349999@s.whatsapp.net", fromMe: false, id }, message: { conversation: body }, messageTimestamp: ts, pushName: "Lia Prado" }],
  });
const lastInteraction = async (companyId: number) => (await storedState(companyId)).contacts[0]?.lastInteractionAt;

describe("contact's last interaction", () => {
  it("follows the contact's messages, one write a minute, never backwards", async () => {
    const ctx: IngestContext = { companyId: freshCompanyId(), whatsappId: 3 };
    await registerSocket(ctx.companyId, { id: 1, profile: "admin" });

    await says(ctx, "LI-1", "bom dia", T0);
    expect(await lastInteraction(ctx.companyId)).toBe(new Date(T0 * 1000).toISOString());
    const frames = () => w.capture.frames.filter((f) => f.event === `company-${ctx.companyId}-contact` && f.data.action === "update");
    expect(frames().at(-1)?.data.contact).toMatchObject({ name: "Lia Prado", lastInteractionAt: new Date(T0 * 1000).toISOString() });
    const framesAfterFirst = frames().length;

    await says(ctx, "LI-2", "ainda aí?", T0 + 30);
    expect(await lastInteraction(ctx.companyId)).toBe(new Date(T0 * 1000).toISOString());
    expect(frames()).toHaveLength(framesAfterFirst);

    await says(ctx, "LI-3", "voltei", T0 + 600);
    expect(await lastInteraction(ctx.companyId)).toBe(new Date((T0 + 600) * 1000).toISOString());

    await says(ctx, "LI-OLD", "mensagem antiga", T0 - 86_400, "append");
    expect(await lastInteraction(ctx.companyId)).toBe(new Date((T0 + 600) * 1000).toISOString());
  });
});
