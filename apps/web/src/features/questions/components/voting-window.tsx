import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Banner } from '../../../components/ui/banner';
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
  return (
    <>
      {message && embed ? (
        <Banner tone="success">
          <FormattedMessage id="votingWindow.counted" />
        </Banner>
      ) : (
        !message &&
        (choice === null ? (
          <Banner tone="warning">
            <FormattedMessage id="votingWindow.badAnswer" values={{ answer }} />
          </Banner>
        ) : (
          <Banner tone="info">
            <FormattedMessage id="votingWindow.confirm" />
          </Banner>
        ))
      )}
      <QuestionCard
        {...card}
        preset={{ choice, submitLabel: intl.formatMessage({ id: 'votingWindow.confirmButton' }) }}
      />
    </>
  );
}
