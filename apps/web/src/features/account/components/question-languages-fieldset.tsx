import { useId } from 'react';
import { FormattedMessage } from 'react-intl';
import { useLanguageName } from '../../../lib/question-shape';
import type { QuestionLanguages } from '../hooks/use-question-languages';

interface QuestionLanguagesFieldsetProps {
  languages: QuestionLanguages;
  error: string | undefined;
}

/** All languages of questions, or only some, picked among those offered. */
export function QuestionLanguagesFieldset({ languages, error }: QuestionLanguagesFieldsetProps) {
  const id = useId();
  const languageName = useLanguageName();
  const { chosen, offered, onlySome, toggle } = languages;
  return (
    <fieldset
      className="fieldset"
      aria-describedby={[`${id}-languages-hint`, error && `${id}-languages-error`].filter(Boolean).join(' ')}
    >
      <legend className="fieldset__legend">
        <FormattedMessage id="account.settings.questionLanguages" />
      </legend>
      <span className="field__hint" id={`${id}-languages-hint`}>
        <FormattedMessage id="account.settings.questionLanguagesHint" />
      </span>
      <div className="choice-pills">
        {[false, true].map((only) => (
          <label key={String(only)} className="choice-pill">
            <input
              type="radio"
              name={`${id}-question-languages`}
              checked={(chosen !== null) === only}
              onChange={() => onlySome(only)}
            />
            {only ? (
              <span id={`${id}-only`}>
                <FormattedMessage id="account.settings.onlyLanguages" />
              </span>
            ) : (
              <FormattedMessage id="account.settings.allLanguages" />
            )}
          </label>
        ))}
      </div>
      {chosen !== null && (
        <div className="choice-pills" role="group" aria-labelledby={`${id}-only`}>
          {offered.map((code) => (
            <label key={code} className="choice-pill">
              <input
                type="checkbox"
                checked={chosen.includes(code)}
                onChange={(event) => toggle(code, event.target.checked)}
              />
              {languageName(code)}
            </label>
          ))}
        </div>
      )}
      {error && (
        <span className="field__error" id={`${id}-languages-error`}>
          {error}
        </span>
      )}
    </fieldset>
  );
}
