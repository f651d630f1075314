/**
 * The platform's outgoing email (docs/product/companies.md#password-reset): an Amazon SES identity for the mail
 * domain (DKIM signed; its DNS records are CloudFormation outputs of the identity to publish at the domain's DNS) and
 * a configuration set (reputation metrics, bounces and complaints suppressed) the emails are sent through. Only the
 * functions that send mail get `ses:SendEmail`, on this identity and configuration set only.
 */
import { CfnOutput } from "aws-cdk-lib";
import { Effect, PolicyStatement, type IGrantable } from "aws-cdk-lib/aws-iam";
import { ConfigurationSet, EmailIdentity, Identity, SuppressionReasons } from "aws-cdk-lib/aws-ses";
import { Construct } from "constructs";

export interface MailProps {
  /** The domain the platform sends from (`no-reply@<domain>`). */
  domain: string;
}

/** The SES identity and configuration set; {@link Mail.grantSend} and {@link Mail.environment} wire a sender. */
export class Mail extends Construct {
  readonly identity: EmailIdentity;
  readonly configurationSet: ConfigurationSet;
  /** What a sending function's environment needs (`MAIL_FROM`, `MAIL_CONFIGURATION_SET`, see shared/src/config.ts). */
  readonly environment: Record<string, string>;

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    this.configurationSet = new ConfigurationSet(this, "ConfigurationSet", { reputationMetrics: true, suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS });
    this.identity = new EmailIdentity(this, "Identity", { identity: Identity.domain(props.domain), configurationSet: this.configurationSet });
    this.environment = { MAIL_FROM: `no-reply@${props.domain}`, MAIL_CONFIGURATION_SET: this.configurationSet.configurationSetName };
    new CfnOutput(this, "MailDomain", { value: props.domain, description: "Publish the identity's DKIM records at this domain's DNS so SES can send from it." });
  }

  /** Lets `grantee` send email from this identity through this configuration set. */
  grantSend(grantee: IGrantable): void {
    const { account, region, partition } = this.identity.stack;
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ["ses:SendEmail"],
        resources: [
          `arn:${partition}:ses:${region}:${account}:identity/${this.identity.emailIdentityName}`,
          `arn:${partition}:ses:${region}:${account}:configuration-set/${this.configurationSet.configurationSetName}`,
        ],
      }),
    );
  }
}
