/**
 * Consumer of the session-command dead-letter queues (docs/product/messages.md#delivery): a command lands here after its 5th receive ended
 * in a retryable failure (a session reconnecting for minutes, a claim never released). A `send` whose message is
 * still at ack 0 is marked failed (`ack -1`, `sendError` `ERR_SENDING_WAPP_MSG`, the state the web offers "retry"
 * for) and the agent is told through the `appMessage` update; any other command is logged and dropped (edits,
 * reactions, reads and session controls are retried by the user). Records that fail to be handled are returned in
 * `batchItemFailures` (ReportBatchItemFailures) and redelivered.
 */
// The composition root: every domain-event listener (this is an entry point).
import "@atende/shared/events/wiring";
import { log } from "@atende/shared/log";
import { failPendingSend } from "@atende/shared/messages/delivery";
import { SessionCommand } from "@atende/shared/whatsapp/commands";

/** The part of Lambda's `SQSEvent` read here. */
export interface SqsEvent {
  Records: { messageId: string; body: string }[];
}

export async function handler(event: SqsEvent): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const r of event.Records ?? []) {
    let cmd: SessionCommand;
    try {
      cmd = SessionCommand.parse(JSON.parse(r.body));
    } catch (err) {
      log("error", "dead-lettered session command unreadable", { messageId: r.messageId, err });
      continue;
    }
    try {
      if (cmd.type === "send") {
        const failed = await failPendingSend(cmd.companyId, cmd.ticketId, cmd.messageId, "ERR_SENDING_WAPP_MSG");
        log("warn", "dead-lettered send", { companyId: cmd.companyId, commandId: cmd.commandId, markedFailed: !!failed });
      } else {
        log("warn", "dead-lettered session command dropped", { companyId: cmd.companyId, commandId: cmd.commandId, type: cmd.type });
      }
    } catch (err) {
      log("error", "dead-lettered session command not handled", { commandId: cmd.commandId, err });
      batchItemFailures.push({ itemIdentifier: r.messageId });
    }
  }
  return { batchItemFailures };
}
