import type { Question } from '@pollscope/contract';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../../../components/ui/button';
import { ShareIcon } from '../../../components/ui/icons';
import { useTimedMessage } from '../../../hooks/use-timed-message';
import { publicUrl } from '../../../lib/public-url';

/** The question's page outside the app, which anyone can open and link previews show. */
export const shareUrl = (id: number) => `${publicUrl()}/q/${id}`;

/**
 * Shares the question's link through the device's share sheet where the browser has one (the Web
 * Share API), or copies it, saying so; where copying is refused too, shows the link to copy by hand.
 */
export function ShareButton({ question }: { question: Pick<Question, 'id' | 'title'> }) {
  const intl = useIntl();
  const [message, setMessage] = useTimedMessage();
  const [shownLink, setShownLink] = useState(false);

  async function share() {
    // Read when shared, not when rendered: the server renders the card in a page, where the address is the browser's.
    const url = shareUrl(question.id);
    if (typeof navigator.share === 'function') {
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
      <Button variant="ghost" size="small" onClick={() => void share()}>
        <ShareIcon />
        <FormattedMessage id="questions.share.button" />
      </Button>
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
    </span>
  );
}
