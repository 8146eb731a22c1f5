import { useState, useSyncExternalStore } from 'react';
import { useIntl } from 'react-intl';
import { CodeIcon, LinkIcon, ShareIcon } from '../../../components/ui/icons';
import { Menu } from '../../../components/ui/menu';
import { useTimedMessage } from '../../../hooks/use-timed-message';
import { publicUrl } from '../../../lib/public-url';
import { EmbedDialog, type EmbeddedQuestion } from './embed-dialog';

/** Whether the browser has a share sheet, which does not change while the page is open. */
const hasShareSheet = () => typeof navigator.share === 'function';
const unchanging = () => () => {};

/** The question's page outside the app, which anyone can open and link previews show. */
export const shareUrl = (id: number) => `${publicUrl()}/q/${id}`;

/**
 * The share menu: the question's link, through the device's share sheet where the browser has one (the Web Share API)
 * or copied, saying so, and shown to copy by hand where copying is refused too; and the code that embeds the question
 * in another site (EmbedDialog).
 */
export function ShareButton({ question }: { question: EmbeddedQuestion }) {
  const intl = useIntl();
  const [message, setMessage] = useTimedMessage();
  const [shownLink, setShownLink] = useState(false);
  const [embedFrom, setEmbedFrom] = useState<HTMLElement | null>(null);
  // The server renders the card in the first page with no browser to ask: its menu offers the link to copy.
  const canShare = useSyncExternalStore(unchanging, hasShareSheet, () => false);

  async function share() {
    // Read when shared, not when rendered: the server renders the card in a page, where the address is the browser's.
    const url = shareUrl(question.id);
    if (canShare) {
      try {
        await navigator.share({ title: question.title, url });
        return;
      } catch (error) {
        // Closing the share sheet is no failure; a refused share falls back to copying.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setShownLink(false);
      setMessage({ text: intl.formatMessage({ id: 'questions.share.copied' }), tone: 'success' });
    } catch {
      setShownLink(true);
    }
  }

  return (
    <span className="share-button">
      <Menu
        label={intl.formatMessage({ id: 'questions.share.button' })}
        icon={<ShareIcon />}
        items={[
          {
            label: intl.formatMessage({ id: canShare ? 'questions.share.shareLink' : 'questions.share.copyLink' }),
            icon: <LinkIcon />,
            onSelect: () => void share(),
          },
          {
            label: intl.formatMessage({ id: 'questions.share.embed' }),
            icon: <CodeIcon />,
            onSelect: setEmbedFrom,
          },
        ]}
      />
      {/* Polite, without the role of a status: a feed has a card per question, and a list has its own status. */}
      <span className="share-button__status" aria-live="polite">
        {message?.text}
      </span>
      {shownLink && (
        <input
          className="input share-button__link"
          readOnly
          value={shareUrl(question.id)}
          aria-label={intl.formatMessage({ id: 'questions.share.link' })}
          autoFocus
          onFocus={(event) => event.currentTarget.select()}
          onBlur={() => setShownLink(false)}
        />
      )}
      {embedFrom && <EmbedDialog question={question} returnFocus={embedFrom} onClose={() => setEmbedFrom(null)} />}
    </span>
  );
}
