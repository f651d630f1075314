/**
 * /helps (docs/product/helps.md): the platform's help videos as a grid of cards (thumbnail, title, description), for
 * every logged-in user. A card is a button: it opens the video's player in a modal that Escape (or the close button)
 * closes. The thumbnail comes from YouTube; when it cannot load (no network, a removed video) the card keeps its title
 * and description over a plain play mark. Loading, error and empty states.
 */
import { Button, Flex, Heading, Text } from "@aws-amplify/ui-react";
import { PlayCircle } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../api/errors.ts";
import { Dialog } from "../../ui/Dialog.tsx";
import { PageState } from "../../ui/PageState.tsx";
import { embedUrl, type Help, thumbnailUrl, useHelps } from "./api.ts";

export function HelpsPage() {
  const { t } = useTranslation();
  const titleId = useId();
  const helps = useHelps();
  const [playing, setPlaying] = useState<Help | null>(null);
  const items = helps.data ?? [];
  return (
    <section className="page helps-page" aria-labelledby={titleId}>
      <Flex className="page-header" alignItems="baseline" gap="0.5rem" wrap="wrap">
        <Heading level={2} id={titleId}>
          {t("helps.title")}
        </Heading>
        {helps.data && (
          <Text variation="secondary" fontSize="small" data-testid="helps-count">
            {t("helps.count", { count: items.length })}
          </Text>
        )}
      </Flex>
      <div className="helps-scroll">
        <PageState loading={helps.isPending} error={helps.isError ? errorMessage(helps.error, t) : undefined} empty={false} onRetry={() => void helps.refetch()}>
          {items.length === 0 ? (
            <Flex direction="column" alignItems="center" gap="0.5rem" padding="3rem 1rem" data-testid="helps-empty">
              <PlayCircle aria-hidden size={40} className="helps-empty-icon" />
              <Text variation="secondary">{t("helps.empty")}</Text>
            </Flex>
          ) : (
            <>
              <Text variation="secondary" fontSize="small" className="helps-subtitle">
                {t("helps.subtitle")}
              </Text>
              <ul className="helps-grid">
                {items.map((h) => (
                  <li key={h.id}>
                    <HelpCard help={h} onOpen={() => setPlaying(h)} />
                  </li>
                ))}
              </ul>
            </>
          )}
        </PageState>
      </div>
      <Dialog open={!!playing} title={playing?.title ?? ""} onClose={() => setPlaying(null)} width="56rem">
        {playing && (
          <>
            <div className="help-player">
              <iframe
                src={embedUrl(playing.video)}
                title={t("helps.player", { title: playing.title })}
                allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
                allowFullScreen
                referrerPolicy="strict-origin-when-cross-origin"
                data-testid="help-player"
              />
            </div>
            {playing.description && <Text className="help-description">{playing.description}</Text>}
            <Flex justifyContent="flex-end">
              <Button onClick={() => setPlaying(null)} data-autofocus>
                {t("common.close")}
              </Button>
            </Flex>
          </>
        )}
      </Dialog>
    </section>
  );
}

/** One video card: its thumbnail (or a play mark when the image fails), title and description; a click plays it. */
function HelpCard({ help, onOpen }: { help: Help; onOpen: () => void }) {
  const { t } = useTranslation();
  const [broken, setBroken] = useState(false);
  return (
    <button type="button" className="help-card" onClick={onOpen} aria-label={t("helps.play", { title: help.title })} data-testid="help-card" data-help-id={help.id}>
      <span className="help-thumb">
        {broken ? (
          <span className="help-thumb-fallback" data-testid="help-thumb-fallback">
            <PlayCircle aria-hidden size={44} />
          </span>
        ) : (
          <img src={thumbnailUrl(help.video)} alt="" loading="lazy" onError={() => setBroken(true)} />
        )}
        <span className="help-thumb-play" aria-hidden>
          <PlayCircle size={36} />
        </span>
      </span>
      <span className="help-card-text">
        <strong className="help-card-title">{help.title}</strong>
        {help.description && <span className="help-card-description">{help.description}</span>}
      </span>
    </button>
  );
}
