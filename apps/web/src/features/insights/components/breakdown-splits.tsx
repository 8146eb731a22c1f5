import type { BreakdownSplits as Splits, Question, SplitGroup } from '@pollscope/contract';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { RELEASE_NOTE, ReleasedGroupChart } from './released-group-chart';
import './insights.css';

export type SplitFilter = SplitGroup['filter'];

/** Countries listed before "Show all": the largest groups. */
const COUNTRIES_LISTED = 5;

/** Whether two groups' filters pick the same voters. */
export function sameFilter(a: SplitFilter, b: SplitFilter): boolean {
  return a.gender === b.gender && a.min_age === b.min_age && a.max_age === b.max_age && a.country === b.country;
}

interface SplitListProps {
  title: string;
  question: Question;
  groups: SplitGroup[];
  current: SplitFilter | null;
  onSelect: (group: SplitGroup) => void;
  /** How many groups to list before a "Show all" button; all when left out. */
  listed?: number;
  /** What the groups are, for the "Show all" button: "countries". */
  plural?: string;
}

function SplitList({
  title,
  question,
  groups,
  current,
  onSelect,
  listed = groups.length,
  plural = 'groups',
}: SplitListProps) {
  const [expanded, setExpanded] = useState(false);
  const shown = expanded ? groups : groups.slice(0, listed);
  // Its heading names it; no label of its own, which would stand beside the filter form's fields of the same names.
  return (
    <section className="split">
      <h3 className="split__title">{title}</h3>
      {groups.length === 0 ? (
        <p className="muted">No voters to split yet.</p>
      ) : (
        <ul className="released-groups">
          {shown.map((group) => (
            <li key={group.label}>
              <ReleasedGroupChart
                question={question}
                group={group}
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
          {expanded ? 'Show fewer' : `Show all ${groups.length} ${plural}`}
        </Button>
      )}
    </section>
  );
}

interface BreakdownSplitsProps {
  question: Question;
  splits: Splits;
  /** The filter of the group whose result is shown in full below, if one is. */
  current: SplitFilter | null;
  onSelect: (group: SplitGroup) => void;
}

/**
 * Each attribute's whole split at once, as small charts with their margins; picking a group shows its result in full.
 */
export function BreakdownSplits({ question, splits, current, onSelect }: BreakdownSplitsProps) {
  // The largest countries first; those too small to show (counted as 0) last.
  const countries = [...splits.country].sort((a, b) => b.count - a.count);
  const common = { question, current, onSelect };
  return (
    <section className="card stack breakdown-splits" aria-labelledby="breakdown-splits-title">
      <div className="stack breakdown-splits__intro">
        <h2 id="breakdown-splits-title">How each group answered</h2>
        <p className="muted">Pick a group to see its result in full.</p>
      </div>
      <SplitList title="By gender" groups={splits.gender} {...common} />
      <SplitList title="By age" groups={splits.age} {...common} />
      <SplitList title="By country" groups={countries} listed={COUNTRIES_LISTED} plural="countries" {...common} />
      <p className="release-note muted">{RELEASE_NOTE}</p>
    </section>
  );
}
