import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { resetMail, sendMail } from "@atende/shared/mail/send";
import { startLazyAiStandin } from "./ai-standin.ts";
import { startLazy } from "./lazy.ts";
import { readInbox, startSes } from "./ses.ts";

describe("stand-ins started on first use", () => {
  it("starts the real server on the first request only, once, and passes requests and bodies through", async () => {
    let starts = 0;
    const front = await startLazy(async () => {
      starts++;
      // The real server: echoes the method and body, and the path in a header.
      const { createServer } = await import("node:http");
      const s = createServer((req, res) => {
        let body = "";
        req.on("data", (c) => (body += c));
        req.on("end", () => res.writeHead(201, { "x-echo": req.url ?? "" }).end(`${req.method} ${body}`));
      });
      await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
      return { endpoint: `http://127.0.0.1:${(s.address() as { port: number }).port}`, stop: () => new Promise<void>((r) => s.close(() => r())) };
    });
    try {
      expect(front.started()).toBe(false);
      expect(starts).toBe(0);
      const answers = await Promise.all([1, 2, 3].map((n) => fetch(`${front.endpoint}/p/${n}?q=1`, { method: "POST", body: `body ${n}` })));
      expect(answers.map((a) => [a.status, a.headers.get("x-echo")])).toEqual([1, 2, 3].map((n) => [201, `/p/${n}?q=1`]));
      expect(await Promise.all(answers.map((a) => a.text()))).toEqual(["POST body 1", "POST body 2", "POST body 3"]);
      expect(starts).toBe(1);
    } finally {
      await front.stop();
    }
  });

  it("answers 502 when the start fails, and the next request starts it again", async () => {
    let tries = 0;
    const front = await startLazy(async () => {
      if (++tries === 1) throw new Error("port taken");
      const { createServer } = await import("node:http");
      const s = createServer((_req, res) => res.end("up"));
      await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
      return { endpoint: `http://127.0.0.1:${(s.address() as { port: number }).port}`, stop: () => new Promise<void>((r) => s.close(() => r())) };
    });
    try {
      expect((await fetch(front.endpoint)).status).toBe(502);
      const second = await fetch(front.endpoint);
      expect([second.status, await second.text()]).toEqual([200, "up"]);
    } finally {
      await front.stop();
    }
  });

  it("the mail emulator takes the product's first email and lists it in its inbox", async () => {
    const ses = await startSes();
    try {
      process.env.AWS_ENDPOINT_URL_SESV2 = ses.endpoint;
      resetMail();
      await sendMail({ to: "ana@empresa.test", subject: "Código", text: "123456" });
      const mails = await readInbox(ses.endpoint);
      expect(mails.map((m) => [m.destination.to, m.subject, m.body.text?.trim()])).toEqual([[["ana@empresa.test"], "Código", "123456"]]);
      expect((await fetch(ses.inboxUrl)).status).toBe(200);
    } finally {
      await ses.stop();
    }
  });

  it("the AI stand-in answers the first chat completion and speech WebSocket at the URLs given at start", async () => {
    const ai = await startLazyAiStandin();
    try {
      const chat = await fetch(`${ai.baseUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt", messages: [{ role: "user", content: "bom dia" }] }),
      });
      expect(chat.status).toBe(200);
      expect((await chat.json()).choices[0].message.content).toContain("Você disse: bom dia");
      // The speech SDK's WebSocket passes through the front too: the upgrade is answered and the socket opens.
      const ws = new WebSocket(`${ai.speechHost}/cognitiveservices/websocket/v1?Ocp-Apim-Subscription-Key=chave-local`);
      await new Promise<void>((resolve, reject) => {
        ws.once("open", () => resolve());
        ws.once("error", reject);
      });
      ws.close();
    } finally {
      await ai.stop();
    }
  });
});
