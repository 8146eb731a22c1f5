import { AGE_FILTER_DEFAULTS, displayId, type BreakdownFilterBody, type BreakdownFilters, type BreakdownResult, type Country, type Question } from '@pollscope/contract';
import { useState, type FormEvent } from 'react';
import { QuestionResult } from '../../../components/results/question-result';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { NamedSelect } from '../../../components/ui/named-select';
import { ArrowLeftIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/loading';
import { ApiError } from '../../../lib/api-client';
import { typeLabels, votesLabel } from '../../../lib/question-shape';
import { filterBreakdown } from '../api/filter-breakdown';
import { useBreakdown } from '../api/get-breakdown';
import { AgeRangeSlider } from './age-range-slider';
import { FilteredResult } from './filtered-result';
import './insights.css';

export const BREAKDOWN_ERROR = 'Something wrong!';

/** The ages a result covers, which the server widens to whole age bands. */
function agesCovered(ages: { min: number; max: number }): string {
  return ages.max >= AGE_FILTER_DEFAULTS.max ? `ages ${ages.min} and over` : `ages ${ages.min}–${ages.max}`;
}

/** The voters' age span, or the no-filter defaults when there is none to go by. */
function ageBounds(filters: BreakdownFilters) {
  const { min, max } = filters.age;
  return min < max ? { min, max } : { ...AGE_FILTER_DEFAULTS };
}

interface FilterFormProps {
  filters: BreakdownFilters;
  countries: Country[];
  pending: boolean;
  onFilter: (body: BreakdownFilterBody) => void;
}

function BreakdownFilterForm({ filters, countries, pending, onFilter }: FilterFormProps) {
  const bounds = ageBounds(filters);
  const [gender, setGender] = useState('');
  const [age, setAge] = useState({ low: bounds.min, high: bounds.max });
  const [country, setCountry] = useState('');
  const countryName = (id: number) => countries.find((candidate) => candidate.id === id)?.name ?? `Country ${id}`;
  const countryOptions = filters.country.map((id) => ({ id, name: countryName(id) })).sort((a, b) => a.name.localeCompare(b.name));

  function submit(event: FormEvent) {
    event.preventDefault();
    // An untouched end of the age range means no limit on that side.
    onFilter({
      min_age: age.low === bounds.min ? AGE_FILTER_DEFAULTS.min : age.low,
      max_age: age.high === bounds.max ? AGE_FILTER_DEFAULTS.max : age.high,
      country: country === '' ? undefined : Number(country),
      gender: gender === '' ? undefined : (gender as 'F' | 'M'),
    });
  }

  return (
    <form className="card form breakdown-filters" onSubmit={submit} aria-label="Filters">
      <fieldset className="fieldset">
        <legend className="fieldset__legend">Gender</legend>
        <div className="choice-pills">
          {[{ value: '', label: 'Any' }, ...filters.gender].map((option) => (
            <label key={option.value || 'any'} className="choice-pill">
              <input type="radio" name="gender" value={option.value} checked={gender === option.value} onChange={() => setGender(option.value)} />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
      <AgeRangeSlider bounds={bounds} low={age.low} high={age.high} onChange={(low, high) => setAge({ low, high })} />
      <Field label="Country">
        <NamedSelect value={country} onChange={setCountry} placeholder="Any country" options={countryOptions} />
      </Field>
      <div className="form-actions">
        <Button type="submit" variant="primary" pending={pending}>
          Filter
        </Button>
      </div>
    </form>
  );
}

function QuestionSummary({ question }: { question: Question }) {
  return (
    <section className="card stack" aria-labelledby="insight-question">
      <div className="stack insight-question">
        <p className="eyebrow">
          {typeLabels[question.type]} · {question.result ? votesLabel(question.result.count) : 'No votes yet'}
        </p>
        <h2 id="insight-question">{question.title}</h2>
      </div>
      {question.result && <QuestionResult question={question} result={question.result} myChoice={question.answer?.choice ?? null} />}
    </section>
  );
}

interface BreakdownViewProps {
  questionId: string;
  countries: Country[];
  onBack: () => void;
}

export function BreakdownView({ questionId, countries, onBack }: BreakdownViewProps) {
  const { data, error } = useBreakdown(questionId);
  const [filtered, setFiltered] = useState<BreakdownResult | null>(null);
  const [filterError, setFilterError] = useState(false);
  const [pending, setPending] = useState(false);

  async function applyFilter(body: BreakdownFilterBody) {
    if (!data) return;
    setPending(true);
    setFilterError(false);
    const result = await filterBreakdown(data.question.id, body);
    setPending(false);
    if (result instanceof ApiError) setFilterError(true);
    else setFiltered(result);
  }

  const backButton = (
    <Button variant="secondary" onClick={onBack}>
      <ArrowLeftIcon />
      Back
    </Button>
  );

  if (error) {
    return (
      <div className="page">
        <PageHeader title="Breakdown" actions={backButton} />
        <Banner tone="error">{BREAKDOWN_ERROR}</Banner>
      </div>
    );
  }
  if (!data) return <Loading />;

  return (
    <div className="page">
      <PageHeader
        eyebrow={<span className="mono">{displayId('QID', data.question.qid)}</span>}
        title="Breakdown"
        subtitle="See how different groups answered."
        actions={backButton}
      />
      <QuestionSummary question={data.question} />
      <BreakdownFilterForm filters={data.filters} countries={countries} pending={pending} onFilter={(body) => void applyFilter(body)} />
      {filterError && <Banner tone="error">{BREAKDOWN_ERROR}</Banner>}
      {filtered?.question.result && (
        <section className="card stack" aria-labelledby="breakdown-result-title" aria-live="polite">
          <h2 id="breakdown-result-title">Filtered result</h2>
          {filtered.ages && <p className="muted">Counting {agesCovered(filtered.ages)}: ages are filtered in whole bands of the year the question was asked.</p>}
          {data.question.result && filtered.privacy.counted < data.question.result.count && (
            <p className="muted">
              Counting the first {filtered.privacy.counted.toLocaleString('en')} of {votesLabel(data.question.result.count)}: breakdowns catch up with new votes a few at a time, so
              that no single vote can be seen arriving.
            </p>
          )}
          <FilteredResult
            question={filtered.question}
            filtered={filtered.question.result}
            overall={filtered.overall}
            comparison={filtered.comparison}
            filteredLabel="Filtered voters"
            noise={filtered.privacy.count_sd}
          />
        </section>
      )}
    </div>
  );
}
