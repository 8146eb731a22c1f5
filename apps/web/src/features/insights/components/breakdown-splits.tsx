import {
  AGE_FILTER_DEFAULTS,
  type BreakdownSplits as Splits,
  type Country,
  type Question,
  type SplitGroup,
} from '@pollscope/contract';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../../../components/ui/button';
import type { MessageId } from '../../../i18n/i18n-provider';
import { useCountryName } from '../country-names';
import { ReleaseNote, ReleasedGroupChart } from './released-group-chart';
import './insights.css';

export type SplitFilter = SplitGroup['filter'];

/** Countries listed before "Show all": the largest groups. */
const COUNTRIES_LISTED = 5;

/** Whether two groups' filters pick the same voters. */
export function sameFilter(a: SplitFilter, b: SplitFilter): boolean {
  return a.gender === b.gender && a.min_age === b.min_age && a.max_age === b.max_age && a.country === b.country;
}

/**
 * A group's name in the reader's language, from the filter that picks it: a gender ("Female"), an age band ("Under
 * 18", "18–24", "65 and over") or a country; the server's (English) label for any other.
 */
function useGroupLabel(countries: readonly Country[]): (group: SplitGroup) => string {
  const intl = useIntl();
  const countryName = useCountryName(countries);
  return ({ filter, label }) => {
    if (filter.gender !== undefined) return intl.formatMessage({ id: 'insights.gender' }, { gender: filter.gender });
    if (filter.country !== undefined) return countryName(filter.country, label);
    if (filter.min_age === undefined && filter.max_age === undefined) return label;
    const min = filter.min_age ?? AGE_FILTER_DEFAULTS.min;
    const max = filter.max_age ?? AGE_FILTER_DEFAULTS.max;
    const band = min <= AGE_FILTER_DEFAULTS.min ? 'under' : max >= AGE_FILTER_DEFAULTS.max ? 'over' : 'between';
    return intl.formatMessage({ id: 'insights.ageBand' }, { band, min, max, under: max + 1 });
  };
}

interface SplitListProps {
  title: MessageId;
  question: Question;
  groups: SplitGroup[];
  labelOf: (group: SplitGroup) => string;
  current: SplitFilter | null;
  onSelect: (group: SplitGroup) => void;
  /** How many groups to list before a "Show all" button; all when left out. */
  listed?: number;
}

function SplitList({ title, question, groups, labelOf, current, onSelect, listed = groups.length }: SplitListProps) {
  const [expanded, setExpanded] = useState(false);
  const shown = expanded ? groups : groups.slice(0, listed);
  // Its heading names it; no label of its own, which would stand beside the filter form's fields of the same names.
  return (
    <section className="split">
      <h3 className="split__title">
        <FormattedMessage id={title} />
      </h3>
      {groups.length === 0 ? (
        <p className="muted">
          <FormattedMessage id="insights.splits.noVoters" />
        </p>
      ) : (
        <ul className="released-groups">
          {shown.map((group) => (
            <li key={group.label}>
              <ReleasedGroupChart
                question={question}
                group={group}
                label={labelOf(group)}
                current={current !== null && sameFilter(group.filter, current)}
                onSelect={() => onSelect(group)}
              />
            </li>
          ))}
        </ul>
      )}
      {groups.length > listed && (
        <Button
          variant="ghost"
          size="small"
          className="split__more"
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? (
            <FormattedMessage id="insights.splits.showFewer" />
          ) : (
            <FormattedMessage id="insights.splits.showAll" values={{ count: groups.length }} />
          )}
        </Button>
      )}
    </section>
  );
}

interface BreakdownSplitsProps {
  question: Question;
  splits: Splits;
  /** The countries by id, to name the country groups. */
  countries: readonly Country[];
  /** The filter of the group whose result is shown in full below, if one is. */
  current: SplitFilter | null;
  onSelect: (group: SplitGroup) => void;
}

/**
 * Each attribute's whole split at once, as small charts with their margins; picking a group shows its result in full.
 */
export function BreakdownSplits({ question, splits, countries, current, onSelect }: BreakdownSplitsProps) {
  // The largest countries first; those too small to show (counted as 0) last.
  const byCountry = [...splits.country].sort((a, b) => b.count - a.count);
  const common = { question, current, onSelect, labelOf: useGroupLabel(countries) };
  return (
    <section className="card stack breakdown-splits" aria-labelledby="breakdown-splits-title">
      <div className="stack breakdown-splits__intro">
        <h2 id="breakdown-splits-title">
          <FormattedMessage id="insights.splits.title" />
        </h2>
        <p className="muted">
          <FormattedMessage id="insights.splits.intro" />
        </p>
      </div>
      <SplitList title="insights.splits.byGender" groups={splits.gender} {...common} />
      <SplitList title="insights.splits.byAge" groups={splits.age} {...common} />
      <SplitList title="insights.splits.byCountry" groups={byCountry} listed={COUNTRIES_LISTED} {...common} />
      <ReleaseNote />
    </section>
  );
}
