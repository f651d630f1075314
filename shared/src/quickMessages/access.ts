/**
 * Who may see and change one quick message (pure, so the web's buttons decide as the server does). Admin and
 * supervisor (`quick-messages:editAny`) see, edit and delete every one; a user sees the `geral` ones and their own, and
 * edits and deletes only their own that are not `geral`.
 */
import { can, type Actor } from "../access/permissions.ts";

/** A quick message as the rules read it: its owner and whether it is everyone's. */
type Owned = { geral: boolean; userId?: number | null };

/** True when the actor may edit and delete the message. */
export function canEditQuickMessage(actor: Actor & { userId?: number }, message: Owned): boolean {
  if (can(actor, "quick-messages:editAny")) return true;
  if (message.geral) return false;
  return message.userId != null && message.userId === actor.userId;
}

/** True when the actor may see (and send) the message: every one for editAny holders, else geral or their own. */
export function canSeeQuickMessage(actor: Actor & { userId?: number }, message: Owned): boolean {
  return can(actor, "quick-messages:editAny") || message.geral || (message.userId != null && message.userId === actor.userId);
}
