import { displayId, type Question } from '@pollscope/contract';
import { Link } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
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
  const { data } = useRelatedQuestions(question.id);
  if (!data || data.related.length === 0) return null;
  return (
    <section className="related" aria-labelledby={`related-${question.id}`}>
      <h3 id={`related-${question.id}`} className="related__title">
        People who answered this also split on…
      </h3>
      <ul className="related__list">
        {data.related.map((item) => {
          const href = relateHref(question, item.question);
          return (
            <li key={item.question.id} className="related__item">
              <div className="related__text">
                <span className="related__question">{item.question.title}</span>
                <span className="muted related__meta">
                  <span className="mono">{displayId('QID', item.question.qid)}</span> · about{' '}
                  {item.shared_voters.toLocaleString('en')} shared voters · Cramér's V {item.cramers_v.toFixed(2)}
                </span>
              </div>
              {href && (
                <Link
                  to={href}
                  className={buttonClass({ size: 'small' })}
                  aria-label={`Relate with ${item.question.title}`}
                >
                  Relate
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
