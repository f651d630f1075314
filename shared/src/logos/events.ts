/**
 * The logos' domain event (docs/product/logos.md#live): `logo.updated` names the destination whose logo changed. Its
 * frame is a platform frame: `company-{id}-logo` goes to every connected user of every company (logos are the
 * platform's, not a company's), so every open tab reads the logos again and shows the new one.
 */
import { baseEvent, defineEvents, defineFrames, realtimeFrames } from "../events/index.ts";
import { LogoFrame, LogoRef } from "./schema.ts";

declare module "../events/registry.ts" {
  interface EventMap {
    "logo.updated": { type: "logo.updated"; companyId: number; ref: LogoRef; updatedAt: string };
  }
}

defineEvents({ "logo.updated": baseEvent("logo.updated").extend({ ref: LogoRef, updatedAt: LogoFrame.shape.updatedAt }) });

defineFrames({ logo: LogoFrame });

realtimeFrames("logo.updated", (e) => [{ name: "logo", data: { ref: e.ref, updatedAt: e.updatedAt }, platform: true }]);
