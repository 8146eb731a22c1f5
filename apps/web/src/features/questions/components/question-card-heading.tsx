import { displayId, type Question } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useFormat } from '../../../i18n/format';
import {
  primaryLanguage,
  questionTypeLabels,
  useCategoryName,
  useLanguageName,
  useReaderLanguage,
} from '../../../lib/question-shape';

/** Who asked, when, in which language and under which tag. */
function QuestionCardMeta({ question, language }: { question: Question; language: string }) {
  const intl = useIntl();
  const format = useFormat();
  const languageName = useLanguageName();
  const readerLanguage = useReaderLanguage();
  const firstTag = question.tags[0]?.name;
  return (
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
      {/* The question's language shows only where it is not the reader's own. */}
      {language !== readerLanguage && (
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
  );
}

/** The top of a question card: its author line, its title and its kind. */
export function QuestionCardHeading({ question, titleId }: { question: Question; titleId: string }) {
  const categoryName = useCategoryName();
  const readerLanguage = useReaderLanguage();
  const language = question.language ? primaryLanguage(question.language) : readerLanguage;
  return (
    <>
      <QuestionCardMeta question={question} language={language} />
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
    </>
  );
}
