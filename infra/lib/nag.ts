/**
 * cdk-nag (AwsSolutions) helpers: every acknowledgement carries its reason in code.
 *
 * cdk-nag 3 plugs into CDK's own policy validation (`Validations.of(app).addPlugins(...)`) and reads
 * acknowledgements from construct metadata written by `Validations.of(construct).acknowledge(...)`.
 * Each IAM wildcard finding has its own id (`AwsSolutions-IAM5[Resource::<Bucket.Arn>/*]`), so
 * {@link acknowledgeWildcards} computes the findings of every IAM policy in a scope the same way cdk-nag
 * does and acknowledges only those that match an explicit, justified pattern; any other wildcard still
 * fails the synth.
 */
import { CfnResource, Stack, Validations } from "aws-cdk-lib";
import { CfnPolicy, CfnRole } from "aws-cdk-lib/aws-iam";
import { AwsSolutionsChecks } from "cdk-nag";
import type { IConstruct } from "constructs";

/** One acknowledged rule: the rule id (optionally with its `[finding]`) and why it does not apply. */
export interface NagAck {
  id: string;
  reason: string;
}

/** Acknowledges AwsSolutions rules on `scope` and all its children. */
export function acknowledge(scope: IConstruct, ...acks: NagAck[]): void {
  Validations.of(scope).acknowledge(...acks);
}

/** A justified IAM wildcard: findings (`Action::s3:GetObject*`, `Resource::<X.Arn>/*`) matching `finding` are acknowledged. */
export interface WildcardRule {
  finding: RegExp;
  reason: string;
}

/** Turns a CloudFormation reference into cdk-nag's flat string (`<Logical.Arn>`, `<AWS::Region>`). Mirrors cdk-nag's flattenCfnReference. */
export function flattenCfnReference(node: unknown): string {
  if (node === undefined) return "";
  if (typeof node === "string") return node.replace(/\$\{/g, "<").replace(/}/g, ">");
  const o = node as Record<string, unknown>;
  if (o["Fn::Join"]) {
    const [delimiter, items] = o["Fn::Join"] as [string, unknown[]];
    return items.map(flattenCfnReference).join(delimiter);
  }
  if (o["Fn::Sub"]) return flattenCfnReference(o["Fn::Sub"]);
  if (o["Fn::GetAtt"]) {
    const [res, attr] = o["Fn::GetAtt"] as [unknown, unknown];
    return `<${flattenCfnReference(res)}.${flattenCfnReference(attr)}>`;
  }
  if (o["Fn::ImportValue"]) return flattenCfnReference(o["Fn::ImportValue"]);
  if (o.Ref) return `<${flattenCfnReference(o.Ref)}>`;
  return JSON.stringify(node);
}

const toArray = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

/** The IAM5 findings of one policy document, as cdk-nag names them. */
export function wildcardFindings(doc: { Statement?: Array<{ Effect: string; Action?: unknown; Resource?: unknown }> } | undefined): string[] {
  const out = new Set<string>();
  for (const st of doc?.Statement ?? []) {
    if (st.Effect !== "Allow") continue;
    for (const a of toArray(st.Action as string | string[])) if (typeof a === "string" && a.includes("*")) out.add(`Action::${a}`);
    for (const r of toArray(st.Resource)) {
      const flat = flattenCfnReference(r);
      if (flat.includes("*")) out.add(`Resource::${flat}`);
    }
  }
  return [...out];
}

function visit(scope: IConstruct, fn: (c: IConstruct) => void): void {
  fn(scope);
  for (const child of scope.node.children) visit(child, fn);
}

/**
 * Acknowledges the AwsSolutions-IAM5 findings of every IAM policy and role under `scope` that match one of
 * `rules`, with that rule's reason. Call it once, after every grant has been made (end of the stack's
 * constructor). Findings matching no rule are left alone, so they fail the synth.
 */
export function acknowledgeWildcards(scope: IConstruct, rules: WildcardRule[]): void {
  visit(scope, (c) => {
    if (!CfnResource.isCfnResource(c)) return;
    const stack = Stack.of(c);
    let docs: unknown[] = [];
    if (c instanceof CfnPolicy) docs = [stack.resolve(c.policyDocument)];
    else if (c instanceof CfnRole) docs = toArray(stack.resolve(c.policies) as Array<{ policyDocument: unknown }>).map((p) => stack.resolve(p.policyDocument));
    else return;
    for (const doc of docs) {
      for (const finding of wildcardFindings(doc as Parameters<typeof wildcardFindings>[0])) {
        const rule = rules.find((r) => r.finding.test(finding));
        if (rule) Validations.of(c).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason: rule.reason });
      }
    }
  });
}

/** A violation of the AwsSolutions pack left after acknowledgements. */
export interface NagViolation {
  rule: string;
  severity: "error" | "warning";
  paths: string[];
}

/**
 * Runs the AwsSolutions pack over `scope` directly (no synth) and returns what is not acknowledged.
 * Used by the tests to print readable findings; the synth itself fails on errors through the plugin.
 */
export function nagViolations(scope: IConstruct): NagViolation[] {
  const report = new AwsSolutionsChecks(scope).validateScope(scope);
  return report.violations.map((v) => ({
    rule: v.ruleName,
    severity: v.severity === "error" ? "error" : "warning",
    paths: v.violatingResources.map((r) => r.constructPath ?? r.resourceLogicalId ?? "?"),
  }));
}
