import { displayId, RELATE_PAIRS_PER_QUESTION, type RelateResult } from '@pollscope/contract';
import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { QuestionResult } from '../../../components/results/question-result';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { ArrowLeftIcon, SwapIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/loading';
import { useErrorText } from '../../../hooks/use-error-text';
import { ApiError } from '../../../lib/api-client';
import { mcChoices, questionTypeLabels, useChoiceLabel } from '../../../lib/question-shape';
import { filterRelate } from '../api/filter-relate';
import { useRelatePair } from '../api/get-relate';
import { AssociationSummary } from './association-summary';
import { FilteredResult } from './filtered-result';
import { ReleaseNote, ReleasedGroupChart } from './released-group-chart';
import './insights.css';

interface RelateViewProps {
  firstId: string;
  secondId: string;
  onSwap: () => void;
  onBack: () => void;
}

export function RelateView({ firstId, secondId, onSwap, onBack }: RelateViewProps) {
  const intl = useIntl();
  const errorText = useErrorText();
  const choiceLabel = useChoiceLabel();
  const { data, error } = useRelatePair(firstId, secondId);
  const [choice, setChoice] = useState<number | null>(null);
  const [filtered, setFiltered] = useState<RelateResult | null>(null);
  const [filterError, setFilterError] = useState<string | null>(null);
  const [pending, setPending] = useState<number | null>(null);

  async function pick(key: number) {
    if (!data) return;
    setChoice(key);
    setPending(key);
    setFilterError(null);
    const result = await filterRelate(data.first.id, data.second.id, key);
    setPending(null);
    if (result instanceof ApiError) {
      setFiltered(null);
      setFilterError(errorText(result));
    } else {
      setFiltered(result);
    }
  }

  const actions = (
    <>
      <Button onClick={onSwap}>
        <SwapIcon />
        <FormattedMessage id="insights.relate.change" />
      </Button>
      <Button variant="ghost" onClick={onBack}>
        <ArrowLeftIcon className="insights-directional-icon" />
        <FormattedMessage id="insights.back" />
      </Button>
    </>
  );
  const titleOf = (first: number, second: number) =>
    intl.formatMessage(
      { id: 'insights.relate.title' },
      { first: displayId('QID', first), second: displayId('QID', second) },
    );
  const title = titleOf(Number(firstId), Number(secondId));

  if (error) {
    return (
      <div className="page">
        <PageHeader title={title} actions={actions} />
        <Banner tone="error">{errorText(error)}</Banner>
      </div>
    );
  }
  if (!data) return <Loading />;

  const { first, second } = data;
  const association = filtered?.association ?? data.association;
  const unreleased = (filtered ?? data).privacy === null;
  const pageTitle = titleOf(first.qid, second.qid);
  const mono = (chunks: ReactNode[]) => <span className="mono">{chunks}</span>;
  const choiceText = choice === null ? '' : choiceLabel(second, choice);

  return (
    <div className="page">
      <PageHeader title={pageTitle} subtitle={<FormattedMessage id="insights.relate.subtitle" />} actions={actions} />

      <section className="card stack" aria-labelledby="relate-first">
        <p className="eyebrow">
          <FormattedMessage
            id="insights.relate.firstMeta"
            values={{
              qid: displayId('QID', first.qid),
              type: intl.formatMessage({ id: questionTypeLabels[first.type] }),
              voted: first.result ? 'yes' : 'no',
              count: first.result?.count ?? 0,
              id: mono,
            }}
          />
        </p>
        <h2 id="relate-first">{first.title}</h2>
        {!filtered && first.result && (
          <QuestionResult question={first} result={first.result} myChoice={first.answer?.choice ?? null} />
        )}
        {filtered?.question.result && choice !== null && (
          <div className="stack" aria-live="polite">
            <p className="relate-caption">
              <FormattedMessage
                id="insights.relate.caption"
                values={{ qid: displayId('QID', first.qid), choice: choiceText }}
              />
            </p>
            <FilteredResult
              question={filtered.question}
              filtered={filtered.question.result}
              overall={filtered.overall}
              comparison={filtered.comparison}
              filteredLabel={intl.formatMessage({ id: 'insights.relate.choiceVoters' }, { choice: choiceText })}
              noise={filtered.privacy?.count_sd ?? 0}
              exact={false}
            />
          </div>
        )}
      </section>

      <section className="card stack" aria-labelledby="relate-second">
        <p className="eyebrow">
          <FormattedMessage id="insights.relate.secondMeta" values={{ qid: displayId('QID', second.qid), id: mono }} />
        </p>
        <h2 id="relate-second">{second.title}</h2>
        <div className={mcChoices(second).length === 3 ? 'relate-choices relate-choices--3' : 'relate-choices'}>
          {mcChoices(second).map((option) => (
            <Button
              key={option.key}
              className="relate-choice"
              aria-pressed={choice === option.key}
              pending={pending === option.key}
              disabled={pending !== null}
              onClick={() => void pick(option.key)}
            >
              {option.value}
            </Button>
          ))}
        </div>
        {filterError && <Banner tone="error">{filterError}</Banner>}
        {unreleased && (
          <Banner tone="info">
            <FormattedMessage id="insights.relate.budgetSpent" values={{ count: RELATE_PAIRS_PER_QUESTION }} />
          </Banner>
        )}
      </section>

      {data.choices.length > 0 && (
        <section className="card stack" aria-labelledby="relate-side-by-side">
          <div className="stack relate-side-by-side__intro">
            <h2 id="relate-side-by-side">
              <FormattedMessage id="insights.relate.sideBySide" />
            </h2>
            <p className="muted">
              <FormattedMessage
                id="insights.relate.sideBySideIntro"
                values={{ second: displayId('QID', second.qid), first: displayId('QID', first.qid) }}
              />
            </p>
          </div>
          <ul className="released-groups released-groups--side">
            {data.choices.map((group) => (
              <li key={group.key}>
                <ReleasedGroupChart question={first} group={group} current={group.key === choice} />
              </li>
            ))}
          </ul>
          <ReleaseNote />
        </section>
      )}

      {association && <AssociationSummary association={association} />}
    </div>
  );
}
