/**
 * Every realtime frame the server sends, by name (the part of `company-{id}-{name}` after the company) → the type of
 * its data. Each type is its zod schema's, declared beside the view the frame carries (the feature's `contract.ts` or
 * `schema.ts`) and registered with `defineFrames` beside the frame's mapper in the feature's `events.ts`; a feature
 * with a new frame adds one line here. Only schema and contract files are imported (as types), so the web's realtime
 * handlers read this map without loading or type-checking any server code.
 */
import type { AnnouncementFrame } from "../announcements/schema.ts";
import type { ChatFrame } from "../chats/schema.ts";
import type { ContactFrame } from "../contacts/schema.ts";
import type { ContactListEvent, ContactListItemEvent } from "../contactLists/schema.ts";
import type { IntegrationFrame } from "../integrations/schema.ts";
import type { JobFrame } from "../jobs/schema.ts";
import type { LogoFrame } from "../logos/schema.ts";
import type { PaymentFrame } from "../invoices/schema.ts";
import type { FileListEvent } from "../fileLists/schema.ts";
import type { AppMessageFrame } from "../messages/contract.ts";
import type { QueueFrame } from "../queues/schema.ts";
import type { QueueOptionFrame } from "../queues/options/schema.ts";
import type { QuickMessageEvent } from "../quickMessages/schema.ts";
import type { ScheduleFrame } from "../schedules/schema.ts";
import type { CampaignFrame } from "../campaigns/schema.ts";
import type { PromptFrame } from "../prompts/schema.ts";
import type { SettingFrame } from "../settings/contract.ts";
import type { TagEvent } from "../tags/schema.ts";
import type { TicketFrame } from "../tickets/contract.ts";
import type { AuthFrame, UserFrame } from "../users/contract.ts";
import type { WhatsappFrame, WhatsappSessionFrame } from "../whatsapp/contract.ts";

export interface FrameMap {
  ticket: TicketFrame;
  appMessage: AppMessageFrame;
  contact: ContactFrame;
  user: UserFrame;
  auth: AuthFrame;
  whatsapp: WhatsappFrame;
  whatsappSession: WhatsappSessionFrame;
  queue: QueueFrame;
  queueOption: QueueOptionFrame;
  tag: TagEvent;
  quickmessage: QuickMessageEvent;
  settings: SettingFrame;
  job: JobFrame;
  chat: ChatFrame;
  announcement: AnnouncementFrame;
  schedule: ScheduleFrame;
  prompt: PromptFrame;
  queueIntegration: IntegrationFrame;
  payment: PaymentFrame;
  ContactList: ContactListEvent;
  ContactListItem: ContactListItemEvent;
  file: FileListEvent;
  campaign: CampaignFrame;
  logo: LogoFrame;
}

/** A frame's name: the part of its event name after `company-{id}-` (`ticket`, `appMessage`, ...). */
export type FrameName = keyof FrameMap & string;

/** The event name a frame travels under, `company-{id}-{name}`. */
export type FrameEvent<N extends FrameName = FrameName> = `company-${number}-${N}`;
