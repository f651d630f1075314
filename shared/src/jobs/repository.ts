/** The job items (`schema.ts`): `C#<cid>#JOB#<id>` / `#`, kept 7 days. */
import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ddb, tableName } from "../db/client.ts";
import { isConditionFailed } from "../db/errors.ts";
import { keys } from "../db/keys.ts";
import { JobItem } from "./schema.ts";

const KEEP_SECONDS = 7 * 24 * 3600;

/** Writes a new job item. */
export async function putJob(job: JobItem): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...job, ...keys.job(job.companyId, job.id), _type: "job", expiresAt: Math.floor(Date.parse(job.createdAt) / 1000) + KEEP_SECONDS },
      ConditionExpression: "attribute_not_exists(PK)",
    }),
  );
}

/** The job `jobId` of company `companyId` (consistent read), or null. A stored item failing its schema throws. */
export async function getJob(companyId: number, jobId: string): Promise<JobItem | null> {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: keys.job(companyId, jobId), ConsistentRead: true }));
  return out.Item ? JobItem.parse(out.Item) : null;
}

/**
 * Saves a step of `job` (as read, at its `step`): the new progress and cursor, `step` + 1. Returns the saved job, or
 * null when another consumer saved a step first (the caller stops: that one goes on).
 */
export async function saveJobStep(job: JobItem, next: Pick<JobItem, "done" | "total" | "cursor" | "status" | "updatedAt"> & Partial<Pick<JobItem, "result">>): Promise<JobItem | null> {
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.job(job.companyId, job.id),
        UpdateExpression: "SET #d = :d, #t = :t, #c = :c, #s = :s, #r = :r, updatedAt = :u, #step = :next, attempts = :zero",
        ConditionExpression: "#step = :step",
        ExpressionAttributeNames: { "#d": "done", "#t": "total", "#c": "cursor", "#s": "status", "#r": "result", "#step": "step" },
        ExpressionAttributeValues: { ":d": next.done, ":t": next.total, ":c": next.cursor, ":s": next.status, ":r": next.result ?? job.result ?? null, ":u": next.updatedAt, ":step": job.step, ":next": job.step + 1, ":zero": 0 },
        ReturnValues: "ALL_NEW",
      }),
    );
    return JobItem.parse(out.Attributes);
  } catch (err) {
    if (isConditionFailed(err)) return null;
    throw err;
  }
}

/**
 * Records a failed run of `job`'s current step (as read, at its `step`): `attempts` + 1, and when `error` is given the
 * job is `failed` with it (`step` + 1, so a late save of that step loses). Returns the job as saved, or null when
 * another consumer saved a step first.
 */
export async function saveJobFailure(job: JobItem, error: string | null, updatedAt: string): Promise<JobItem | null> {
  const failing = error !== null;
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.job(job.companyId, job.id),
        UpdateExpression: failing ? "SET attempts = :a, #s = :failed, #e = :e, updatedAt = :u, #step = :next" : "SET attempts = :a, updatedAt = :u",
        ConditionExpression: "#step = :step",
        ExpressionAttributeNames: { "#step": "step", ...(failing ? { "#s": "status", "#e": "error" } : {}) },
        ExpressionAttributeValues: {
          ":a": job.attempts + 1,
          ":u": updatedAt,
          ":step": job.step,
          ...(failing ? { ":failed": "failed", ":e": error, ":next": job.step + 1 } : {}),
        },
        ReturnValues: "ALL_NEW",
      }),
    );
    return JobItem.parse(out.Attributes);
  } catch (err) {
    if (isConditionFailed(err)) return null;
    throw err;
  }
}
