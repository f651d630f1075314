/**
 * Outgoing email through Amazon SES (v2 API) — the same SDK calls in the cloud (the stack's SES identity and
 * configuration set, `infra/lib/mail.ts`) and on one machine (the local SES v2 emulator `aws-ses-v2-local` started by
 * the local stack, reached through `AWS_ENDPOINT_URL_SESV2`).
 */
import { SendEmailCommand, SESv2Client } from "@aws-sdk/client-sesv2";
import { getConfig } from "../config.ts";
import { sdkLogger } from "../log.ts";

let client: SESv2Client | undefined;
const ses = () => (client ??= new SESv2Client({ region: getConfig().AWS_REGION, logger: sdkLogger }));

/** Forgets the client (tests and the local stack change the endpoint). */
export function resetMail(): void {
  client = undefined;
}

/** One plain-text email. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends `mail` from `MAIL_FROM`. Throws when SES refuses it (the caller decides whether that is the user's business). */
export async function sendMail(mail: Mail): Promise<void> {
  const { MAIL_FROM, MAIL_CONFIGURATION_SET } = getConfig();
  await ses().send(
    new SendEmailCommand({
      FromEmailAddress: MAIL_FROM,
      Destination: { ToAddresses: [mail.to] },
      Content: { Simple: { Subject: { Data: mail.subject, Charset: "UTF-8" }, Body: { Text: { Data: mail.text, Charset: "UTF-8" } } } },
      ...(MAIL_CONFIGURATION_SET ? { ConfigurationSetName: MAIL_CONFIGURATION_SET } : {}),
    }),
  );
}
