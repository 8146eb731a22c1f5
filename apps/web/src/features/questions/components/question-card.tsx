import { displayId, type Question, type QuestionModeration } from '@pollscope/contract';
import { useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useNavigate } from 'react-router';
import { AnswerForm } from '../../../components/answer/answer-form';
import { QuestionResult } from '../../../components/results/question-result';
import { buttonClass } from '../../../components/ui/button';
import { ChartIcon, FlagIcon, ShieldIcon } from '../../../components/ui/icons';
import { Menu } from '../../../components/ui/menu';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../hooks/use-error-text';
import { useOnScreen } from '../../../hooks/use-on-screen';
import { useReport } from '../../../hooks/use-report';
import { useFormat } from '../../../i18n/format';
import { ApiError } from '../../../lib/api-client';
import {
  primaryLanguage,
  questionTypeLabels,
  useCategoryName,
  useLanguageName,
  useReaderLanguage,
} from '../../../lib/question-shape';
import { answerQuestion } from '../api/answer-question';
import { useLiveResult } from '../api/get-live-result';
import { HideButton } from './hide-button';
import { LikeButton } from './like-button';
import { RelateButton } from './relate-button';
import { ShareButton } from './share-button';
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
  const errorText = useErrorText();
  const format = useFormat();
  const categoryName = useCategoryName();
  const languageName = useLanguageName();
  const readerLanguage = useReaderLanguage();
  // The card shows its own vote and like at once; a fresh copy from the list replaces them.
  const [question, setQuestion] = useState(loaded);
  const [loadedSeen, setLoadedSeen] = useState(loaded);
  if (loaded !== loadedSeen) {
    setLoadedSeen(loaded);
    setQuestion(loaded);
  }
  const [voting, setVoting] = useState(false);
  const [voteError, setVoteError] = useState<string | null>(null);
  const cardRef = useRef<HTMLElement>(null);
  const onScreen = useOnScreen(cardRef);
  const report = useReport();

  // A result on screen follows the votes and likes others cast.
  useLiveResult(question.id, question.result !== null && onScreen, (live) => {
    const updated = {
      ...question,
      result: live.result ?? question.result,
      vote_count: live.result?.count ?? question.vote_count,
      like_count: live.like_count,
    };
    setQuestion(updated);
    onChange?.(updated);
  });

  async function vote(choice: number) {
    setVoting(true);
    setVoteError(null);
    const result = await answerQuestion(question.id, choice);
    setVoting(false);
    if (result instanceof ApiError) {
      setVoteError(errorText(result));
      return;
    }
    setQuestion(result);
    onChange?.(result);
  }

  function changeLike(liked: boolean) {
    const updated = { ...question, liked, like_count: Math.max(0, question.like_count + (liked ? 1 : -1)) };
    setQuestion(updated);
    onChange?.(updated);
  }

  const answered = question.answer !== null;
  const firstTag = question.tags[0]?.name;
  const titleId = `question-${question.id}-title`;
  // The question's language shows only where it is not the reader's own.
  const language = question.language ? primaryLanguage(question.language) : readerLanguage;
  const foreign = language !== readerLanguage;

  return (
    <article ref={cardRef} className="question-card card" aria-labelledby={titleId}>
      {label && <p className="question-card__label">{label}</p>}
      {question.moderation && <ModerationNotice moderation={question.moderation} />}
      <header className="question-card__meta">
        <Link to={paths.user.getHref(question.user)} className="question-card__author">
          <span className="avatar" aria-hidden="true">
            {question.user_name.slice(0, 1).toUpperCase()}
          </span>
          <span className="question-card__author-name">{question.user_name}</span>
        </Link>
        <span className="question-card__dot" aria-hidden="true">
          ·
        </span>
        <time dateTime={question.published_at} className="muted">
          {format.day(question.published_at)}
        </time>
        {foreign && (
          <span
            className="question-card__language"
            title={intl.formatMessage(
              { id: 'questions.card.writtenIn' },
              { language: intl.formatDisplayName(language, { type: 'language' }) ?? language },
            )}
          >
            {languageName(language)}
          </span>
        )}
        {firstTag && (
          <Link to={paths.tag.getHref(firstTag)} className="tag-chip">
            #{firstTag}
          </Link>
        )}
      </header>

      <h2 className="question-card__title" id={titleId} lang={language}>
        <Link to={paths.question.getHref(question.id)}>{question.title}</Link>
      </h2>
      <p className="question-card__sub">
        <span className="mono">{displayId('QID', question.qid)}</span>
        <span aria-hidden="true"> · </span>
        <FormattedMessage id={questionTypeLabels[question.type]} />
        {question.category && (
          <>
            <span aria-hidden="true"> · </span>
            <Link to={paths.category.getHref(question.category.id)}>{categoryName(question.category)}</Link>
          </>
        )}
      </p>

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
            onChange={changeLike}
          />
          <ShareButton question={question} />
          <HideButton
            questionId={question.id}
            passed={question.passed}
            onChange={(passed) => {
              setQuestion((current) => ({ ...current, passed }));
              onPassedChange?.(passed);
            }}
          />
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
      {answered && renderAfterAnswer?.(question)}
    </article>
  );
}
