import type { Question, QuestionModeration } from '@pollscope/contract';
import { useRef, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useNavigate } from 'react-router';
import { AnswerForm } from '../../../components/answer/answer-form';
import { QuestionResult } from '../../../components/results/question-result';
import { buttonClass } from '../../../components/ui/button';
import { ChartIcon, ShieldIcon } from '../../../components/ui/icons';
import { paths } from '../../../config/paths';
import { useOnScreen } from '../../../hooks/use-on-screen';
import { useCardQuestion } from '../hooks/use-card-question';
import { QuestionCardFooter } from './question-card-footer';
import { QuestionCardHeading } from './question-card-heading';
import { RelateButton } from './relate-button';
import './questions.css';

/** What only the author sees of a question moderators removed, or that reports hid until a moderator decides. */
function ModerationNotice({ moderation }: { moderation: QuestionModeration }) {
  const removed = moderation.status === 'removed';
  return (
    <div className={`question-card__moderation banner ${removed ? 'banner--error' : 'banner--warning'}`}>
      <ShieldIcon />
      <div>
        <p className="question-card__moderation-title">
          {removed ? (
            <FormattedMessage id="questions.moderation.removed" />
          ) : (
            <FormattedMessage id="questions.moderation.underReview" />
          )}
        </p>
        <p>
          <FormattedMessage
            id={removed ? 'questions.moderation.removedText' : 'questions.moderation.underReviewText'}
            values={{ hasReason: moderation.reason ? 'yes' : 'no', reason: moderation.reason ?? '' }}
          />
        </p>
      </div>
    </div>
  );
}

export interface QuestionCardProps {
  question: Question;
  /** Called with the question after a vote, a like or a live update, so the cached list stays current. */
  onChange?: (question: Question) => void;
  /** Called once the question was hidden or shown again, so the list around it can reload. */
  onPassedChange?: (passed: boolean) => void;
  /** Shown under the card once the viewer has answered. */
  renderAfterAnswer?: (question: Question) => ReactNode;
  label?: string;
  /** The answer the form starts with, chosen already in an embed, and the button's words that confirm it. */
  preset?: { choice: number | null; submitLabel: string };
}

export function QuestionCard({
  question: loaded,
  onChange,
  onPassedChange,
  renderAfterAnswer,
  label,
  preset,
}: QuestionCardProps) {
  const navigate = useNavigate();
  const intl = useIntl();
  const cardRef = useRef<HTMLElement>(null);
  const onScreen = useOnScreen(cardRef);
  const { question, voting, voteError, vote, changeLike, changePassed } = useCardQuestion(loaded, onScreen, onChange);
  const answered = question.answer !== null;
  const titleId = `question-${question.id}-title`;

  return (
    <article ref={cardRef} className="question-card card" aria-labelledby={titleId}>
      {label && <p className="question-card__label">{label}</p>}
      {question.moderation && <ModerationNotice moderation={question.moderation} />}
      <QuestionCardHeading question={question} titleId={titleId} />

      {question.answer === null && (
        <AnswerForm
          question={question}
          submitLabel={preset?.submitLabel ?? intl.formatMessage({ id: 'questions.card.vote' })}
          initialChoice={preset?.choice}
          pending={voting}
          error={voteError}
          onSubmit={vote}
        />
      )}
      {question.result && (
        <section className="question-card__result" aria-label={intl.formatMessage({ id: 'questions.card.results' })}>
          <QuestionResult question={question} result={question.result} myChoice={question.answer?.choice ?? null} />
        </section>
      )}

      {answered && (
        <div className="question-card__tools">
          <Link to={paths.breakdown.getHref(question.id)} className={buttonClass({ size: 'small' })}>
            <ChartIcon />
            <FormattedMessage id="questions.card.breakdown" />
          </Link>
          {question.type === 'MC' && (
            <RelateButton
              questionId={question.id}
              onPair={(first, second) => navigate(paths.relate.getHref(first, second))}
            />
          )}
        </div>
      )}

      <QuestionCardFooter
        question={question}
        onLikeChange={changeLike}
        onPassedChange={(passed) => {
          changePassed(passed);
          onPassedChange?.(passed);
        }}
      />
      {answered && renderAfterAnswer?.(question)}
    </article>
  );
}
