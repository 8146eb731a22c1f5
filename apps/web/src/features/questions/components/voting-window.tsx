import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Banner } from '../../../components/ui/banner';
import type { MessageId } from '../../../i18n/i18n-provider';
import { answeredMessage, offeredChoice, openingEmbed } from '../voting-window';
import { QuestionCard, type QuestionCardProps } from './question-card';

interface VotingWindowProps extends QuestionCardProps {
  /** The answer chosen in the embed, as the window's address carries it. */
  answer: string;
}

/**
 * The question screen as the window an embed opened to vote: the answer chosen there is preselected, and only the
 * person's click on the confirm button votes, never the window's opening. Once they have answered (now or before),
 * the embed that opened the window is told their answer and the result, and the window closes; opened any other way,
 * the window is the question screen, showing the result as it always does.
 */
export function VotingWindow({ answer, ...card }: VotingWindowProps) {
  const intl = useIntl();
  const { question } = card;
  // Read once: the opener stays the same while the window lives, and the check reads across windows.
  const [embed] = useState(() => openingEmbed(question.id));
  const told = useRef(false);
  const message = answeredMessage(question);

  useEffect(() => {
    if (!embed || !message || told.current) return;
    told.current = true;
    // Only the app's own pages can read it: the embed, framed on another site, is of this origin.
    embed.postMessage(message, window.location.origin);
    window.close();
  }, [embed, message]);

  const choice = offeredChoice(question, answer);
  // Before the vote, what the window asks for or why it preselects nothing; after it, that the window may go.
  const notice: { tone: 'success' | 'warning' | 'info'; id: MessageId } | null = message
    ? embed && { tone: 'success', id: 'votingWindow.counted' }
    : choice === null
      ? { tone: 'warning', id: 'votingWindow.badAnswer' }
      : { tone: 'info', id: 'votingWindow.confirm' };
  return (
    <>
      {notice && (
        <Banner tone={notice.tone}>
          <FormattedMessage id={notice.id} values={{ answer }} />
        </Banner>
      )}
      <QuestionCard
        {...card}
        preset={{ choice, submitLabel: intl.formatMessage({ id: 'votingWindow.confirmButton' }) }}
      />
    </>
  );
}
