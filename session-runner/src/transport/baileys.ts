/**
 * The real WhatsApp transport (`WA_PROVIDER=baileys`; docs/architecture.md#7-the-session-runner-session-runner): Baileys' `makeWASocket` with
 * - auth state in DynamoDB, one item per key (`auth-state.ts`, behind `makeCacheableSignalKeyStore`; `makeWASocket`
 *   adds `addTransactionCapability` with our `transactionOpts`), creds and keys written with the shard lease epoch —
 *   a write refused by a newer epoch ends the socket (440, the session manager fences);
 * - `getMessage` answered from stored messages through the WhatsApp-id alias (retries, poll decryption);
 * - no history sync, not marked online on connect.
 */
import { Boom } from "@hapi/boom";
import { Browsers, DisconnectReason, makeWASocket, type proto, type WAMessageKey } from "@whiskeysockets/baileys";
import pino from "pino";
import { log } from "@atende/shared/log";
import { FencedError, openDynamoAuthState, wipeAuthState } from "../auth-state.ts";
import type { MessageStorePort, RunnerSocket, SessionRef, Transport } from "../ports.ts";

export interface BaileysTransportOptions {
  /** Lease epoch of the shard a connection belongs to (0 when not leased). */
  epochOf: (whatsappId: number) => number;
  store: Pick<MessageStorePort, "findWaMessage">;
  /** pino level for Baileys' own logs. Default "warn". */
  logLevel?: string;
}

/** Builds the Baileys transport. */
export function baileysTransport(opts: BaileysTransportOptions): Transport {
  const logger = pino({ level: opts.logLevel ?? "warn" });
  return {
    name: "baileys",
    async connect(ref: SessionRef): Promise<RunnerSocket> {
      const replaced = () => void sock.end(new Boom("auth state owned by a newer lease", { statusCode: DisconnectReason.connectionReplaced }));
      const { state, persistCreds } = await openDynamoAuthState(ref.whatsappId, opts.epochOf(ref.whatsappId), logger, () => {
        log("warn", "signal keys not saved: a newer lease owns the connection", { companyId: ref.companyId, whatsappId: ref.whatsappId });
        replaced();
      });
      const sock = makeWASocket({
        auth: state,
        logger,
        browser: Browsers.ubuntu("Chrome"),
        markOnlineOnConnect: false,
        syncFullHistory: false,
        transactionOpts: { maxCommitRetries: 10, delayBetweenTriesMs: 1000 },
        getMessage: async (key: WAMessageKey): Promise<proto.IMessage | undefined> => {
          if (!key.remoteJid || !key.id) return undefined;
          const m = await opts.store.findWaMessage(ref.companyId, ref.whatsappId, key.remoteJid, key.id);
          return m ? { conversation: m.body } : undefined;
        },
      });
      sock.ev.on("creds.update", () => {
        persistCreds().catch((err) => {
          log(err instanceof FencedError ? "warn" : "error", "creds not saved", { companyId: ref.companyId, whatsappId: ref.whatsappId, err });
          if (err instanceof FencedError) replaced();
        });
      });
      return sock;
    },
    async wipe(ref: SessionRef) {
      await wipeAuthState(ref.whatsappId);
    },
  };
}
