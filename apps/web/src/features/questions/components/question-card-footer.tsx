import type { Question } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { FlagIcon } from '../../../components/ui/icons';
import { Menu } from '../../../components/ui/menu';
import { useReport } from '../../../hooks/use-report';
import { HideButton } from './hide-button';
import { LikeButton } from './like-button';
import { ShareButton } from './share-button';

interface QuestionCardFooterProps {
  question: Question;
  onLikeChange: (liked: boolean) => void;
  onPassedChange: (passed: boolean) => void;
}

/** The bottom of a question card: the vote count and what a reader can do with the question. */
export function QuestionCardFooter({ question, onLikeChange, onPassedChange }: QuestionCardFooterProps) {
  const intl = useIntl();
  const report = useReport();
  return (
    <footer className="question-card__footer">
      {/* The count shows before voting too; only the split waits for a vote. */}
      <p className="question-card__votes">
        <span>
          <FormattedMessage
            id="questions.card.votes"
            values={{ count: question.result?.count ?? question.vote_count }}
          />
        </span>
        {!question.result && (
          <span className="question-card__hint">
            {' · '}
            <FormattedMessage id="questions.card.voteToSeeResults" />
          </span>
        )}
      </p>
      <div className="question-card__actions">
        <LikeButton
          questionId={question.id}
          liked={question.liked}
          count={question.like_count}
          onChange={onLikeChange}
        />
        <ShareButton question={question} />
        <HideButton questionId={question.id} passed={question.passed} onChange={onPassedChange} />
        {/* One's own question is not reported (the API refuses it). */}
        {report && !question.owner && (
          <Menu
            label={intl.formatMessage({ id: 'questions.card.moreActions' })}
            items={[
              {
                label: intl.formatMessage({ id: 'questions.card.report' }),
                icon: <FlagIcon />,
                onSelect: (trigger) => report({ target: 'question', id: question.id, name: question.title }, trigger),
              },
            ]}
          />
        )}
      </div>
    </footer>
  );
}
