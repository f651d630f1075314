/**
 * Translation of DynamoDB condition failures (of the conditional writes and transactions). Repositories call these and
 * turn the outcome into domain `AppError`s; raw SDK errors never reach handlers.
 */

/** True for a failed `ConditionExpression` on a single-item write. */
export function isConditionFailed(err: unknown): boolean {
  return (err as Error | undefined)?.name === "ConditionalCheckFailedException";
}

/**
 * For a `TransactionCanceledException`, the reason code of each action in order
 * (`"None"`, `"ConditionalCheckFailed"`, `"TransactionConflict"`...), else `undefined`.
 */
export function cancellationReasons(err: unknown): { Code?: string; Item?: Record<string, unknown> }[] | undefined {
  const e = err as { name?: string; CancellationReasons?: { Code?: string; Item?: Record<string, unknown> }[] };
  if (e?.name !== "TransactionCanceledException") return undefined;
  return e.CancellationReasons ?? [];
}

/** True when the transaction was cancelled because action `index` failed its condition. */
export function failedConditionAt(err: unknown, index: number): boolean {
  return cancellationReasons(err)?.[index]?.Code === "ConditionalCheckFailed";
}

/** True when a transaction lost to a concurrent one and may be retried. */
export function isTransactionConflict(err: unknown): boolean {
  const reasons = cancellationReasons(err);
  return !!reasons && reasons.some((r) => r.Code === "TransactionConflict");
}

/** Runs `fn`, retrying with jitter (up to `attempts`) while it fails with a transaction conflict. */
export async function withConflictRetry<T>(fn: () => Promise<T>, attempts = 6): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i + 1 >= attempts || !isTransactionConflict(err)) throw err;
      await new Promise((r) => setTimeout(r, 10 + Math.random() * 40 * (i + 1)));
    }
  }
}

/**
 * Runs a conditional single-item write: resolves true when it applied, false when its `ConditionExpression` failed
 * (the item changed or is gone); any other error propagates.
 */
export async function appliedUnlessChanged(write: () => Promise<unknown>): Promise<boolean> {
  return (
    (await unlessConditionFails(async () => {
      await write();
      return true;
    })) ?? false
  );
}

/** Runs a conditional write: its result, or null when DynamoDB refused its condition (any other error is rethrown). */
export async function unlessConditionFails<T>(write: () => Promise<T>): Promise<T | null> {
  try {
    return await write();
  } catch (err) {
    if (isConditionFailed(err)) return null;
    throw err;
  }
}
