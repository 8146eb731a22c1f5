import { displayId, type Question } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { useFormat } from '../../../i18n/format';
import { useRelatedQuestions } from '../api/get-related';
import './insights.css';

/** Relate needs its second question to be multiple choice: put whichever is in that place. */
function relateHref(question: Question, other: Question): string | null {
  if (other.type === 'MC') return paths.relate.getHref(question.id, other.id);
  if (question.type === 'MC') return paths.relate.getHref(other.id, question.id);
  return null;
}

/** Questions whose answers go together with this one's, each one click from relate. */
export function RelatedQuestions({ question }: { question: Question }) {
  const intl = useIntl();
  const format = useFormat();
  const { data } = useRelatedQuestions(question.id);
  if (!data || data.related.length === 0) return null;
  return (
    <section className="related" aria-labelledby={`related-${question.id}`}>
      <h3 id={`related-${question.id}`} className="related__title">
        <FormattedMessage id="insights.related.title" />
      </h3>
      <ul className="related__list">
        {data.related.map((item) => {
          const href = relateHref(question, item.question);
          return (
            <li key={item.question.id} className="related__item">
              <div className="related__text">
                <span className="related__question">{item.question.title}</span>
                <span className="muted related__meta">
                  <FormattedMessage
                    id="insights.related.meta"
                    values={{
                      qid: displayId('QID', item.question.qid),
                      count: item.shared_voters,
                      v: format.average(item.cramers_v),
                      id: (chunks) => <span className="mono">{chunks}</span>,
                    }}
                  />
                </span>
              </div>
              {href && (
                <Link
                  to={href}
                  className={buttonClass({ size: 'small' })}
                  aria-label={intl.formatMessage({ id: 'insights.related.relateWith' }, { title: item.question.title })}
                >
                  <FormattedMessage id="insights.related.relate" />
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
