/**
 * Jobs area through the real Lambda handler: a background job's progress as its starter and the company's admins read
 * it, and nobody else (another agent of the company, another company's admin) learns it exists; the id is validated.
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { api } from "../../../test/helpers.ts";
import { companyWorld, runQueuedJobs, useLocalAws } from "../../../test/world.ts";
import { ddb, tableName } from "../../../shared/src/db/client.ts";
import { keys } from "../../../shared/src/db/keys.ts";
import { JOB_MAX_ATTEMPTS, JobView } from "../../../shared/src/jobs/schema.ts";

useLocalAws({ sqs: true });

const w = companyWorld({ agents: [{ name: "Ana" }, { name: "Bruno" }], other: true });

/** An agent deletes a fresh tag: a job of theirs (202), returned with its answer. */
async function startDeleteTag(token: string) {
  const tag = (await api("POST", "/api/tags", { token, body: { name: `Etiqueta ${Math.random().toString(36).slice(2, 8)}` } })).body;
  const res = await api("DELETE", `/api/tags/${tag.id}`, { token });
  expect(res.status).toBe(202);
  return res.body as { jobId: string };
}

describe("GET /api/jobs/{jobId}", () => {
  it("shows the starter the job running, then done, with its progress", async () => {
    const ana = w.agents[0];
    const { jobId } = await startDeleteTag(ana.token);
    const running = await api("GET", `/api/jobs/${jobId}`, { token: ana.token });
    expect(running.status).toBe(200);
    expect(JobView.strict().parse(running.body)).toMatchObject({ id: jobId, kind: "deleteTag", status: "running", done: 0, total: null });
    await runQueuedJobs();
    const done = await api("GET", `/api/jobs/${jobId}`, { token: ana.token });
    expect(done.body).toMatchObject({ id: jobId, kind: "deleteTag", status: "done", done: 0, total: 0 });
    // The company's admin may follow it too.
    expect((await api("GET", `/api/jobs/${jobId}`, { token: w.admin.token })).body).toEqual(done.body);
  });

  it("says failed, with an error for the screen, when a step keeps failing, instead of running forever", async () => {
    const ana = w.agents[0];
    const { jobId } = await startDeleteTag(ana.token);
    // A resume point the step cannot read: every run of the step throws.
    await ddb().send(new UpdateCommand({ TableName: tableName(), Key: keys.job(w.cid, jobId), UpdateExpression: "SET #c = :c", ExpressionAttributeNames: { "#c": "cursor" }, ExpressionAttributeValues: { ":c": "{not json" } }));
    const runs = await runQueuedJobs();
    expect(runs).toBe(JOB_MAX_ATTEMPTS);
    const failed = await api("GET", `/api/jobs/${jobId}`, { token: ana.token });
    expect(JobView.strict().parse(failed.body)).toMatchObject({ id: jobId, kind: "deleteTag", status: "failed", error: "ERR_INTERNAL", done: 0 });
    // Its message is gone: nothing runs it again.
    expect(await runQueuedJobs()).toBe(0);
  });

  it("answers 404 and nothing else to another agent of the company and to another company's admin", async () => {
    const { jobId } = await startDeleteTag(w.agents[0].token);
    for (const token of [w.agents[1].token, w.other.admin.token]) {
      const res = await api("GET", `/api/jobs/${jobId}`, { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "ERR_NOT_FOUND" });
    }
  });

  it("refuses an id that is not a UUID with 400, and an unknown one with 404", async () => {
    const bad = await api("GET", "/api/jobs/123", { token: w.admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("ERR_VALIDATION");
    const unknown = await api("GET", "/api/jobs/6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5", { token: w.admin.token });
    expect(unknown.status).toBe(404);
    expect((await api("GET", "/api/jobs/6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5")).status).toBe(401);
  });
});
