/**
 * Ingest rate with the chatbot at work (`npm run bench`), beside the plain ingest figure: a
 * connection with three queues and a greeting, the second queue with a two-level option tree; each customer opens a
 * ticket (menu), answers wrong (menu again), picks queue 2 (its option menu), walks down, up, down and reaches a
 * leaf (handed to people), then writes once more (the bot stays out). Every automatic answer is stored and enqueued
 * for the runner like in production (the connection is marked CONNECTED; nothing consumes the commands).
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../../shared/src/db/client.ts";
import { keys } from "../../shared/src/db/keys.ts";
import { putQueueOption } from "../../shared/src/queues/options/repository.ts";
import { load } from "./stats.ts";

/** What each customer sends, in order (8 messages, 7 answered by the bot: menu, menu, option menu, node, option menu, node, leaf). */
export const BOT_CONVERSATION = ["oi", "9", "2", "1", "0", "1", "2", "obrigado"];

/**
 * Sends `customers` × {@link BOT_CONVERSATION} messages, `concurrency` in flight (one customer's messages in order),
 * through `handleBaileysEvent`; returns the rate and the number of automatic answers stored.
 */
export async function benchBotIngest(opts: {
  companyId: number;
  whatsappId: number;
  queueIds: number[];
  handleBaileysEvent: (ctx: { companyId: number; whatsappId: number }, event: string, data: unknown) => Promise<unknown>;
  customers?: number;
  concurrency?: number;
}) {
  const { companyId, whatsappId, queueIds } = opts;
  const customers = opts.customers ?? 200;
  const now = new Date().toISOString();
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.whatsapp(companyId, whatsappId),
      UpdateExpression: "SET #s = :s, queueIds = :q, greetingMessage = :g",
      ExpressionAttributeNames: { "#s": "status" },
      ExpressionAttributeValues: { ":s": "CONNECTED", ":q": queueIds, ":g": "Olá {{firstName}}! Escolha um setor:" },
    }),
  );
  const q = queueIds[1];
  const option = (id: number, parentId: number | null, o: string, title: string, message: string) =>
    putQueueOption({ id, companyId, queueId: q, parentId, option: o, title, message, mediaPath: null, mediaName: null, createdAt: now, updatedAt: now });
  await option(900001, null, "1", "Boletos", "Sobre boletos:");
  await option(900002, 900001, "1", "Segunda via", "Segue a segunda via.");
  await option(900003, 900001, "2", "Boleto pago", "Envie o comprovante; um atendente confirma.");
  await option(900004, null, "2", "Notas fiscais", "Notas em 24 horas.");
  const total = customers * BOT_CONVERSATION.length;
  const stamp = Date.now();
  const rate = await load(total, opts.concurrency ?? 16, (i) => {
    const contact = i % customers;
    const step = Math.floor(i / customers);
    return opts
      .handleBaileysEvent({ companyId, whatsappId }, "messages.upsert", {
        type: "notify",
        messages: [
          {
            key: { remoteJid: `55117${String(contact).padStart(8, "0")}@s.whatsapp.net`, fromMe: false, id: `BOT${stamp}${i}` },
            messageTimestamp: Math.floor(Date.now() / 1000),
            pushName: `Cliente ${contact}`,
            message: { conversation: BOT_CONVERSATION[step] },
          },
        ],
      })
      .then(() => undefined);
  });
  return { ...rate, messages: total };
}
