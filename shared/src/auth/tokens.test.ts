import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "../config.ts";
import { AppError } from "../errors.ts";
import { resetSigningKey, signAccessToken, verifyToken } from "./tokens.ts";

const SECRET = "cold-start-secret-0123456789abcdef";

/** A Secrets Manager client whose first `failures` reads fail (throttled), then answer SECRET. Counts the reads. */
function flakySecrets(failures: number) {
  const client = new SecretsManagerClient({ region: "us-east-1", credentials: { accessKeyId: "x", secretAccessKey: "y" } });
  let reads = 0;
  client.middlewareStack.add(
    () => async () => {
      reads++;
      if (reads <= failures) throw Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException", $fault: "client" });
      return { output: { SecretString: SECRET, $metadata: {} } } as any;
    },
    { step: "initialize", priority: "high", name: "fault" },
  );
  return { client, reads: () => reads };
}

const saved = { secret: process.env.JWT_SECRET, arn: process.env.JWT_SECRET_ARN };
function useSecretArn() {
  delete process.env.JWT_SECRET;
  process.env.JWT_SECRET_ARN = "arn:aws:secretsmanager:us-east-1:000000000000:secret:jwt";
  resetConfig();
}
afterEach(() => {
  if (saved.secret === undefined) delete process.env.JWT_SECRET;
  else process.env.JWT_SECRET = saved.secret;
  if (saved.arn === undefined) delete process.env.JWT_SECRET_ARN;
  else process.env.JWT_SECRET_ARN = saved.arn;
  resetConfig();
  resetSigningKey();
});

describe("signing key from Secrets Manager at cold start", () => {
  it("retries a failed read instead of turning every request into a 401", async () => {
    useSecretArn();
    const flaky = flakySecrets(2);
    resetSigningKey(flaky.client);
    const token = await signAccessToken({ id: 7, companyId: 3, tokenVersion: 1, profile: "user" });
    expect(await verifyToken(token, "access")).toMatchObject({ userId: 7, companyId: 3, tokenVersion: 1 });
    expect(flaky.reads()).toBe(3);
  });

  it("does not cache a read that kept failing: the request fails as a server fault, the next one recovers", async () => {
    useSecretArn();
    const flaky = flakySecrets(3);
    resetSigningKey(flaky.client);
    const err = await verifyToken("a.b.c", "access").catch((e) => e);
    expect(err).not.toBeInstanceOf(AppError); // not 401 ERR_SESSION_EXPIRED: the web would log the user out
    expect(err.name).toBe("SigningKeyUnavailable");
    const token = await signAccessToken({ id: 8, companyId: 3, tokenVersion: 0, profile: "admin" });
    expect((await verifyToken(token, "access")).userId).toBe(8);
  });
});
