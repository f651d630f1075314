/**
 * Background jobs' progress: no page of its own; its texts and the `company-{id}-job` frames (the progress of a job
 * this user started). Screens that start a job show `JobProgress` (tags' delete, tickets' close all).
 */
import type { Feature } from "../types.ts";
import { jobFrame } from "./api.ts";
import { jobsTexts } from "./i18n.ts";

export const jobsFeature: Feature = {
  id: "jobs",
  routes: [],
  texts: { jobs: jobsTexts },
  realtime: { job: jobFrame },
};
