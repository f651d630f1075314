/**
 * Fault injection for DynamoDB (tests and the bench only): a middleware on the shared client that throws
 * the errors DynamoDB gives under load — throttling, a 5xx, a transaction cancelled by a conflict — as they surface
 * after the SDK's own retries (it sits before the retry step), for the calls a plan chooses.
 */
import { ddb } from "../db/client.ts";

export type FaultKind = "throttle" | "5xx" | "conflict";
/**
 * A fault after the fact: the call reached DynamoDB and was applied, then its answer was lost (a 5xx or a dropped
 * connection on the way back): the client sees an error and retries a write that already happened.
 */
export type LostAnswer = "lostAnswer";

/** The error DynamoDB's SDK raises for `kind` (a conflict only makes sense for a transaction; others get throttling). */
export function ddbError(kind: FaultKind, commandName: string): Error {
  if (kind === "conflict" && commandName.startsWith("TransactWrite")) {
    return Object.assign(new Error("Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]"), {
      name: "TransactionCanceledException",
      $fault: "client",
      $metadata: { httpStatusCode: 400 },
      CancellationReasons: [{ Code: "None" }, { Code: "TransactionConflict", Message: "Transaction is ongoing for the item" }, { Code: "None" }, { Code: "None" }],
    });
  }
  if (kind === "5xx") return Object.assign(new Error("Internal server error"), { name: "InternalServerError", $fault: "server", $metadata: { httpStatusCode: 500 } });
  return Object.assign(new Error("The level of configured provisioned throughput for the table was exceeded."), {
    name: "ProvisionedThroughputExceededException",
    $fault: "client",
    $metadata: { httpStatusCode: 400 },
  });
}

/**
 * Makes DynamoDB calls fail while `plan(call)` answers a fault kind (before the call: nothing applied; `lostAnswer`:
 * after it was applied, the answer replaced by a 5xx); `call.n` counts every call since injection
 * (0-based), `call.command` is the low-level command name (`TransactWriteItemsCommand`, `GetItemCommand`, ...),
 * `call.input` the command's input (its `Key`, `TableName`...).
 * Returns `{failed, calls, remove}`: how many calls failed and were made so far, and the undo.
 */
export function injectDdbFaults(plan: (call: { n: number; command: string; input: Record<string, unknown> }) => FaultKind | LostAnswer | null) {
  const name = `atendeFaults${Math.random().toString(36).slice(2)}`;
  const state = { failed: 0, calls: 0 };
  const stack = ddb().middlewareStack;
  stack.add(
    (next, context) => async (args) => {
      const command = String((context as { commandName?: string }).commandName ?? "");
      const kind = plan({ n: state.calls++, command, input: ((args as { input?: Record<string, unknown> }).input ?? {}) });
      if (kind === "lostAnswer") {
        await next(args);
        state.failed++;
        throw ddbError("5xx", command);
      }
      if (kind) {
        state.failed++;
        throw ddbError(kind, command);
      }
      return next(args);
    },
    { step: "initialize", name, priority: "high" },
  );
  return {
    get failed() {
      return state.failed;
    },
    get calls() {
      return state.calls;
    },
    remove: () => void stack.remove(name),
  };
}
