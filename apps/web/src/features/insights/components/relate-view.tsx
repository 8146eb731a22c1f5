import { displayId, RELATE_PAIRS_PER_QUESTION, type Question, type RelateResult } from '@pollscope/contract';
import { useState } from 'react';
import { QuestionResult } from '../../../components/results/question-result';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { ArrowLeftIcon, SwapIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/loading';
import { ApiError } from '../../../lib/api-client';
import { choiceLabel, mcChoices, typeLabels, votesLabel } from '../../../lib/question-shape';
import { filterRelate } from '../api/filter-relate';
import { useRelatePair } from '../api/get-relate';
import { AssociationSummary } from './association-summary';
import { FilteredResult } from './filtered-result';
import { RELEASE_NOTE, ReleasedGroupChart } from './released-group-chart';
import './insights.css';

export const BUDGET_SPENT_MESSAGE = `These two questions cannot be related: each question can be related to at most ${RELATE_PAIRS_PER_QUESTION} others, so that what relating shows of each voter's answer stays within its privacy budget, and one of these has reached that.`;

/** The caption over the first question's result among one choice's voters. */
export function relateCaption(first: Pick<Question, 'qid'>, choiceText: string): string {
  return `${displayId('QID', first.qid)} votes filtered for "${choiceText}" voters`;
}

interface RelateViewProps {
  firstId: string;
  secondId: string;
  onSwap: () => void;
  onBack: () => void;
}

export function RelateView({ firstId, secondId, onSwap, onBack }: RelateViewProps) {
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
      setFilterError(result.message);
    } else {
      setFiltered(result);
    }
  }

  const actions = (
    <>
      <Button onClick={onSwap}>
        <SwapIcon />
        Change
      </Button>
      <Button variant="ghost" onClick={onBack}>
        <ArrowLeftIcon />
        Back
      </Button>
    </>
  );
  const title = `Relate ${displayId('QID', Number(firstId))} and ${displayId('QID', Number(secondId))}`;

  if (error) {
    return (
      <div className="page">
        <PageHeader title={title} actions={actions} />
        <Banner tone="error">{(error as Error).message}</Banner>
      </div>
    );
  }
  if (!data) return <Loading />;

  const { first, second } = data;
  const association = filtered?.association ?? data.association;
  const unreleased = (filtered ?? data).privacy === null;
  const pageTitle = `Relate ${displayId('QID', first.qid)} and ${displayId('QID', second.qid)}`;

  return (
    <div className="page">
      <PageHeader title={pageTitle} subtitle="How voters of one answer answered another question." actions={actions} />

      <section className="card stack" aria-labelledby="relate-first">
        <p className="eyebrow">
          <span className="mono">{displayId('QID', first.qid)}</span> · {typeLabels[first.type]} ·{' '}
          {first.result ? votesLabel(first.result.count) : 'No votes yet'}
        </p>
        <h2 id="relate-first">{first.title}</h2>
        {!filtered && first.result && (
          <QuestionResult question={first} result={first.result} myChoice={first.answer?.choice ?? null} />
        )}
        {filtered?.question.result && choice !== null && (
          <div className="stack" aria-live="polite">
            <p className="relate-caption">{relateCaption(first, choiceLabel(second, choice))}</p>
            <FilteredResult
              question={filtered.question}
              filtered={filtered.question.result}
              overall={filtered.overall}
              comparison={filtered.comparison}
              filteredLabel={`"${choiceLabel(second, choice)}" voters`}
              noise={filtered.privacy?.count_sd ?? 0}
            />
          </div>
        )}
      </section>

      <section className="card stack" aria-labelledby="relate-second">
        <p className="eyebrow">
          <span className="mono">{displayId('QID', second.qid)}</span> · Pick a choice to filter by
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
        {unreleased && <Banner tone="info">{BUDGET_SPENT_MESSAGE}</Banner>}
      </section>

      {data.choices.length > 0 && (
        <section className="card stack" aria-labelledby="relate-side-by-side">
          <div className="stack relate-side-by-side__intro">
            <h2 id="relate-side-by-side">Every choice side by side</h2>
            <p className="muted">
              How the voters of each choice of {displayId('QID', second.qid)} answered {displayId('QID', first.qid)}.
            </p>
          </div>
          <ul className="released-groups released-groups--side">
            {data.choices.map((group) => (
              <li key={group.key}>
                <ReleasedGroupChart question={first} group={group} current={group.key === choice} />
              </li>
            ))}
          </ul>
          <p className="release-note muted">{RELEASE_NOTE}</p>
        </section>
      )}

      {association && <AssociationSummary association={association} />}
    </div>
  );
}
