import type { McAnswer } from '@pollscope/contract';
import { FormattedMessage } from 'react-intl';
import { useFormat } from '../../i18n/format';
import type { McChoice } from '../../lib/question-shape';
import { CheckIcon } from '../ui/icons';
import './results.css';

interface McResultBarsProps {
  choices: McChoice[];
  answers: McAnswer[];
  myChoice?: number | null;
}

/** One bar per choice with its rounded percentage; the viewer's own choice is marked. */
export function McResultBars({ choices, answers, myChoice }: McResultBarsProps) {
  const format = useFormat();
  const percentOf = (key: number) => answers.find((answer) => answer.key === key)?.percent ?? 0;
  return (
    <ul className="result-bars">
      {choices.map((choice) => {
        const percent = percentOf(choice.key);
        const mine = choice.key === myChoice;
        return (
          <li key={choice.key} className={mine ? 'result-bar result-bar--mine' : 'result-bar'}>
            <div className="result-bar__text">
              <span className="result-bar__label">
                {mine && <CheckIcon className="result-bar__check" />}
                {choice.value}
                {mine && (
                  <span className="sr-only">
                    {' '}
                    <FormattedMessage id="results.yourAnswer" />
                  </span>
                )}
              </span>
              <span className="result-bar__value">{format.percent(percent)}</span>
            </div>
            <div className="result-bar__track" aria-hidden="true">
              <div className="result-bar__fill" style={{ width: `${percent}%` }} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
