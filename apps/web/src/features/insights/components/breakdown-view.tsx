import {
  AGE_FILTER_DEFAULTS,
  displayId,
  type BreakdownFilterBody,
  type BreakdownFilters,
  type BreakdownResult,
  type Country,
  type Gender,
  type Question,
  type SplitGroup,
} from '@pollscope/contract';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { QuestionResult } from '../../../components/results/question-result';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { NamedSelect } from '../../../components/ui/named-select';
import { ArrowLeftIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { Loading } from '../../../components/ui/loading';
import { useFormat } from '../../../i18n/format';
import { ApiError } from '../../../lib/api-client';
import { questionTypeLabels } from '../../../lib/question-shape';
import { useCountryName } from '../country-names';
import { filterBreakdown } from '../api/filter-breakdown';
import { useBreakdown } from '../api/get-breakdown';
import { AgeRangeSlider } from './age-range-slider';
import { BreakdownSplits, type SplitFilter } from './breakdown-splits';
import { FilteredResult } from './filtered-result';
import './insights.css';

/** The voters' age span, or the no-filter defaults when there is none to go by. */
function ageBounds(filters: BreakdownFilters) {
  const { min, max } = filters.age;
  return min < max ? { min, max } : { ...AGE_FILTER_DEFAULTS };
}

/** The form's ages for a filter's: an open end at the voters' own bound, the lower at least a year below the upper. */
function agesOf(filter: SplitFilter, bounds: { min: number; max: number }) {
  const high = Math.min(bounds.max, Math.max(bounds.min + 1, filter.max_age ?? bounds.max));
  const low = Math.max(bounds.min, Math.min(high - 1, filter.min_age ?? bounds.min));
  return { low, high };
}

interface FilterFormProps {
  filters: BreakdownFilters;
  countries: Country[];
  /** What the form starts with: a group's filter picked from the splits, or none. */
  initial: SplitFilter;
  pending: boolean;
  onFilter: (body: BreakdownFilterBody) => void;
}

function BreakdownFilterForm({ filters, countries, initial, pending, onFilter }: FilterFormProps) {
  const bounds = ageBounds(filters);
  const [gender, setGender] = useState<Gender | ''>(initial.gender ?? '');
  const [age, setAge] = useState(() => agesOf(initial, bounds));
  const [country, setCountry] = useState(initial.country === undefined ? '' : String(initial.country));
  const intl = useIntl();
  const countryName = useCountryName(countries);
  const genderOptions: { value: Gender | ''; label: string }[] = [
    { value: '', label: intl.formatMessage({ id: 'insights.filters.anyGender' }) },
    ...filters.gender.map(({ value }) => ({
      value,
      label: intl.formatMessage({ id: 'insights.gender' }, { gender: value }),
    })),
  ];
  const collator = new Intl.Collator(intl.locale);
  const countryOptions = filters.country
    .map((id) => ({ id, name: countryName(id) }))
    .sort((a, b) => collator.compare(a.name, b.name));

  function submit(event: FormEvent) {
    event.preventDefault();
    // An untouched end of the age range means no limit on that side.
    onFilter({
      min_age: age.low === bounds.min ? AGE_FILTER_DEFAULTS.min : age.low,
      max_age: age.high === bounds.max ? AGE_FILTER_DEFAULTS.max : age.high,
      country: country === '' ? undefined : Number(country),
      gender: gender === '' ? undefined : gender,
    });
  }

  return (
    <form
      className="card form breakdown-filters"
      onSubmit={submit}
      aria-label={intl.formatMessage({ id: 'insights.filters.label' })}
    >
      <fieldset className="fieldset">
        <legend className="fieldset__legend">
          <FormattedMessage id="insights.filters.gender" />
        </legend>
        <div className="choice-pills">
          {genderOptions.map((option) => (
            <label key={option.value || 'any'} className="choice-pill">
              <input
                type="radio"
                name="gender"
                value={option.value}
                checked={gender === option.value}
                onChange={() => setGender(option.value)}
              />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
      <AgeRangeSlider bounds={bounds} low={age.low} high={age.high} onChange={(low, high) => setAge({ low, high })} />
      <Field label={intl.formatMessage({ id: 'insights.filters.country' })}>
        <NamedSelect
          value={country}
          onChange={setCountry}
          placeholder={intl.formatMessage({ id: 'insights.filters.anyCountry' })}
          options={countryOptions}
        />
      </Field>
      <div className="form-actions">
        <Button type="submit" variant="primary" pending={pending}>
          <FormattedMessage id="insights.filters.submit" />
        </Button>
      </div>
    </form>
  );
}

function QuestionSummary({ question }: { question: Question }) {
  const intl = useIntl();
  return (
    <section className="card stack" aria-labelledby="insight-question">
      <div className="stack insight-question">
        <p className="eyebrow">
          <FormattedMessage
            id="insights.question.meta"
            values={{
              type: intl.formatMessage({ id: questionTypeLabels[question.type] }),
              voted: question.result ? 'yes' : 'no',
              count: question.result?.count ?? 0,
            }}
          />
        </p>
        <h2 id="insight-question">{question.title}</h2>
      </div>
      {question.result && (
        <QuestionResult question={question} result={question.result} myChoice={question.answer?.choice ?? null} />
      )}
    </section>
  );
}

interface BreakdownViewProps {
  questionId: string;
  countries: Country[];
  onBack: () => void;
}

export function BreakdownView({ questionId, countries, onBack }: BreakdownViewProps) {
  const intl = useIntl();
  const format = useFormat();
  const { data, error } = useBreakdown(questionId);
  const [filtered, setFiltered] = useState<BreakdownResult | null>(null);
  const [filterError, setFilterError] = useState(false);
  const [pending, setPending] = useState(false);
  /** The group picked from the splits, whose filter the form shows; null once the form filters by itself. */
  const [picked, setPicked] = useState<SplitFilter | null>(null);
  /** Bumped when a group is picked, so that the form starts again from its filter. */
  const [formVersion, setFormVersion] = useState(0);
  const latestRequest = useRef(0);
  const resultRef = useRef<HTMLElement>(null);
  /** Set when a group is picked from the splits, far above where its result is drawn. */
  const revealResult = useRef(false);

  useEffect(() => {
    if (!filtered || !revealResult.current) return;
    revealResult.current = false;
    // jsdom has no scrolling.
    resultRef.current?.scrollIntoView?.({ block: 'start' });
  }, [filtered]);

  async function applyFilter(body: BreakdownFilterBody, reveal = false) {
    if (!data) return;
    // Only the last filter asked for is shown, however the answers arrive.
    const request = ++latestRequest.current;
    setPending(true);
    setFilterError(false);
    const result = await filterBreakdown(data.question.id, body);
    if (request !== latestRequest.current) return;
    setPending(false);
    if (result instanceof ApiError) {
      setFilterError(true);
      return;
    }
    revealResult.current = reveal;
    setFiltered(result);
  }

  function pickGroup(group: SplitGroup) {
    setPicked(group.filter);
    setFormVersion((version) => version + 1);
    void applyFilter(group.filter, true);
  }

  function submitForm(body: BreakdownFilterBody) {
    setPicked(null);
    void applyFilter(body);
  }

  const backButton = (
    <Button variant="secondary" onClick={onBack}>
      <ArrowLeftIcon className="insights-directional-icon" />
      <FormattedMessage id="insights.back" />
    </Button>
  );

  if (error) {
    return (
      <div className="page">
        <PageHeader title={<FormattedMessage id="insights.breakdown.title" />} actions={backButton} />
        <Banner tone="error">
          <FormattedMessage id="insights.breakdown.error" />
        </Banner>
      </div>
    );
  }
  if (!data) return <Loading />;

  return (
    <div className="page">
      <PageHeader
        eyebrow={<span className="mono">{displayId('QID', data.question.qid)}</span>}
        title={<FormattedMessage id="insights.breakdown.title" />}
        subtitle={<FormattedMessage id="insights.breakdown.subtitle" />}
        actions={backButton}
      />
      <QuestionSummary question={data.question} />
      <div className="breakdown-layout">
        <BreakdownFilterForm
          key={formVersion}
          filters={data.filters}
          countries={countries}
          initial={picked ?? {}}
          pending={pending}
          onFilter={submitForm}
        />
        <BreakdownSplits
          question={data.question}
          splits={data.splits}
          countries={countries}
          current={picked}
          onSelect={pickGroup}
        />
      </div>
      {filterError && (
        <Banner tone="error">
          <FormattedMessage id="insights.breakdown.error" />
        </Banner>
      )}
      {filtered?.question.result && (
        <section
          ref={resultRef}
          className="card stack breakdown-result"
          aria-labelledby="breakdown-result-title"
          aria-live="polite"
        >
          <h2 id="breakdown-result-title">
            <FormattedMessage id="insights.breakdown.filteredResult" />
          </h2>
          {filtered.ages && (
            <p className="muted">
              <FormattedMessage
                id="insights.breakdown.ages"
                values={{
                  open: filtered.ages.max >= AGE_FILTER_DEFAULTS.max ? 'yes' : 'no',
                  min: filtered.ages.min,
                  max: filtered.ages.max,
                }}
              />
            </p>
          )}
          {data.question.result && filtered.privacy.counted < data.question.result.count && (
            <p className="muted">
              <FormattedMessage
                id="insights.breakdown.counted"
                values={{ counted: format.count(filtered.privacy.counted), count: data.question.result.count }}
              />
            </p>
          )}
          <FilteredResult
            question={filtered.question}
            filtered={filtered.question.result}
            overall={filtered.overall}
            comparison={filtered.comparison}
            filteredLabel={intl.formatMessage({ id: 'insights.breakdown.filteredVoters' })}
            noise={filtered.privacy.count_sd}
            exact={filtered.privacy.exact}
          />
        </section>
      )}
    </div>
  );
}
