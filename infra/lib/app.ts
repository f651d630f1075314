/**
 * Builds the Atende CDK app on an `App`: the stack plus cdk-nag's AwsSolutions checks as a validation plugin,
 * which fails the synth on any unacknowledged error. Shared by `infra/bin/app.ts` and the tests.
 */
import { type App, Validations } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { AtendeStack } from "./atende-stack.ts";

/** Reads the app's context, adds the `Atende` stack and the AwsSolutions checks; returns the stack. */
export function buildApp(app: App): AtendeStack {
  const ctx = (key: string) => app.node.tryGetContext(key) as string | number | boolean | undefined;
  const desired = Number(ctx("atende:runnerDesiredCount") ?? 1);
  const retain = ctx("atende:retainData");
  const stack = new AtendeStack(app, "Atende", {
    description: "Atende: multi-company customer-service inbox over WhatsApp",
    stage: String(ctx("atende:stage") ?? "prod"),
    runnerDesiredCount: Number.isInteger(desired) && desired >= 0 ? desired : 1,
    retainData: retain === undefined ? true : retain === true || retain === "true",
    mailDomain: ctx("atende:mailDomain") === undefined ? undefined : String(ctx("atende:mailDomain")),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return stack;
}
