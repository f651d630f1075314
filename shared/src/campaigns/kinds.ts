/** The timer kind of a campaign's planner (`timers/`): one timer per campaign, ref = the campaign id. */
export const CAMPAIGN_TIMER = "campaign";
