/**
 * Campaigns' own error codes, declared from the feature's folder with `defineErrors`; their pt/en/es texts live in
 * the web's campaigns bundle. The pause reasons are codes too: the campaign shows them.
 */
import { defineErrors } from "../errors.ts";

declare module "../errors.ts" {
  interface FeatureErrorCodes {
    ERR_NO_CAMPAIGN_FOUND: true;
    ERR_CAMPAIGN_NOT_EDITABLE: true;
    ERR_CAMPAIGN_NOT_RUNNING: true;
    ERR_CAMPAIGN_NOT_CANCELED: true;
    ERR_CAMPAIGN_RUNNING: true;
    ERR_CAMPAIGN_INCOMPLETE: true;
    ERR_CAMPAIGN_CONNECTION_DOWN: true;
    ERR_CAMPAIGN_FAILURE_RATE: true;
    ERR_CAMPAIGN_BLOCKS: true;
  }
}

export const CAMPAIGN_ERRORS = defineErrors({
  ERR_NO_CAMPAIGN_FOUND: { status: 404, meaning: "no such campaign in the caller's company" },
  ERR_CAMPAIGN_NOT_EDITABLE: { status: 409, meaning: "the campaign runs, ended or starts within the hour: it can no longer be changed" },
  ERR_CAMPAIGN_NOT_RUNNING: { status: 409, meaning: "only a campaign in progress can be cancelled" },
  ERR_CAMPAIGN_NOT_CANCELED: { status: 409, meaning: "only a cancelled campaign can be restarted" },
  ERR_CAMPAIGN_RUNNING: { status: 409, meaning: "a campaign in progress cannot be deleted: cancel it first" },
  ERR_CAMPAIGN_INCOMPLETE: { status: 400, meaning: "a scheduled campaign needs a connection, an audience (contact list or tag) and a message" },
  ERR_CAMPAIGN_CONNECTION_DOWN: { status: 409, meaning: "paused: the campaign's connection is not connected (it resumes by itself)" },
  ERR_CAMPAIGN_FAILURE_RATE: { status: 409, meaning: "paused: too many sends failed" },
  ERR_CAMPAIGN_BLOCKS: { status: 409, meaning: "paused: too many contacts blocked the number" },
});
