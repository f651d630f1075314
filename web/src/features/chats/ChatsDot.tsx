/**
 * The side menu's unread dot of the internal chat: shown while any of the user's loaded chats has messages they have
 * not read. Live through the chats cache (frames and reads of every tab and device update it).
 */
import { useTranslation } from "react-i18next";
import { useSession } from "../../api/session.ts";
import { unreadsOf, useChatPages } from "./api.ts";

export function ChatsDot() {
  const { t } = useTranslation();
  const me = useSession()!.user;
  const q = useChatPages();
  const unread = (q.data?.pages ?? []).flatMap((p) => p.records).reduce((n, c) => n + unreadsOf(c, me.id), 0);
  if (!unread) return null;
  return <span className="chats-dot" role="img" aria-label={t("chats.unread", { count: unread })} title={t("chats.unread", { count: unread })} data-testid="chats-unread-dot" />;
}
