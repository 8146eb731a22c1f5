import { EMBED_DEFAULT_WIDTH, embedHeight, embedIframeHtml, embedPath, type Question } from '@pollscope/contract';
import { useId, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useTimedMessage } from '../../../hooks/use-timed-message';
import { publicUrl } from '../../../lib/public-url';
import { mcChoices } from '../../../lib/question-shape';

export type EmbeddedQuestion = Pick<Question, 'id' | 'title' | 'type' | 'choices'>;

/** The frame's size for `question`, as oEmbed gives it too. */
const frameSize = (question: EmbeddedQuestion) => ({
  width: EMBED_DEFAULT_WIDTH,
  height: embedHeight(question.type, mcChoices(question).length),
});

/**
 * The share menu's "Embed": the `<iframe>` code that shows the question on another site, to copy, and the embed itself
 * as a preview. The code names the site's public address; the preview is framed from this page's own origin.
 */
export function EmbedDialog({
  question,
  returnFocus,
  onClose,
}: {
  question: EmbeddedQuestion;
  returnFocus: HTMLElement;
  onClose: () => void;
}) {
  const intl = useIntl();
  const id = useId();
  const code = useRef<HTMLTextAreaElement>(null);
  const [message, setMessage] = useTimedMessage();
  const size = frameSize(question);
  const snippet = embedIframeHtml({ src: `${publicUrl()}${embedPath(question.id)}`, title: question.title, ...size });

  async function copy() {
    try {
      await navigator.clipboard.writeText(snippet);
      setMessage({ text: intl.formatMessage({ id: 'questions.embed.copied' }), tone: 'success' });
    } catch {
      // Selected, the code is one keystroke from copied.
      code.current?.focus();
      code.current?.select();
      setMessage({ text: intl.formatMessage({ id: 'questions.embed.copyFailed' }), tone: 'error' });
    }
  }

  return (
    <Dialog
      title={intl.formatMessage({ id: 'questions.embed.title' })}
      description={<FormattedMessage id="questions.embed.description" />}
      returnFocus={returnFocus}
      onClose={onClose}
    >
      <div className="field embed-dialog__code">
        <label className="field__label" htmlFor={`${id}-code`}>
          <FormattedMessage id="questions.embed.code" />
        </label>
        <textarea
          ref={code}
          id={`${id}-code`}
          className="textarea embed-dialog__snippet"
          // Code reads left to right in every language.
          dir="ltr"
          readOnly
          rows={4}
          value={snippet}
          onFocus={(event) => event.currentTarget.select()}
        />
      </div>
      <div className="embed-dialog__copy">
        <span className={`embed-dialog__status embed-dialog__status--${message?.tone}`} role="status">
          {message?.text}
        </span>
        {/* The keyboard starts on the button: one key copies the code. */}
        <Button variant="primary" onClick={() => void copy()} data-autofocus>
          <FormattedMessage id="questions.embed.copy" />
        </Button>
      </div>
      <section className="embed-dialog__preview" aria-labelledby={`${id}-preview`}>
        <h3 id={`${id}-preview`}>
          <FormattedMessage id="questions.embed.preview" />
        </h3>
        <iframe
          src={embedPath(question.id)}
          title={question.title}
          width={size.width}
          height={size.height}
          loading="lazy"
        />
      </section>
    </Dialog>
  );
}
