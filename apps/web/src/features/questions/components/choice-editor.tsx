import { MC_MAX_CHOICES, MC_MIN_CHOICES, CHOICE_MAX_LENGTH } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { CloseIcon, PlusIcon } from '../../../components/ui/icons';
import { useDraftErrorText, type DraftChange } from '../hooks/use-question-draft';
import type { DraftErrorKind } from '../question-draft';

interface ChoiceEditorProps {
  choices: string[];
  /** The language the question is written in, which its choices are too. */
  language: string;
  errors: (DraftErrorKind | undefined)[] | undefined;
  change: DraftChange;
}

/** The choices of a multiple-choice poll, each removable down to the fewest, and one more to add. */
export function ChoiceEditor({ choices, language, errors, change }: ChoiceEditorProps) {
  const intl = useIntl();
  const fieldError = useDraftErrorText();
  const setChoice = (index: number, value: string) =>
    change({ choices: choices.map((choice, i) => (i === index ? value : choice)) });
  return (
    <fieldset className="fieldset">
      <legend className="fieldset__legend">
        <FormattedMessage id="ask.choices" />
      </legend>
      <div className="choice-editor">
        {choices.map((choice, index) => (
          <div key={index} className="choice-editor__row">
            <Field
              label={intl.formatMessage({ id: 'ask.choice' }, { number: index + 1 })}
              error={fieldError(errors?.[index])}
            >
              <input
                className="input"
                required
                maxLength={CHOICE_MAX_LENGTH}
                lang={language}
                value={choice}
                onChange={(event) => setChoice(index, event.target.value)}
              />
            </Field>
            {choices.length > MC_MIN_CHOICES && (
              <Button
                variant="ghost"
                className="choice-editor__remove"
                aria-label={intl.formatMessage({ id: 'ask.removeChoice' }, { number: index + 1 })}
                onClick={() => change({ choices: choices.filter((_, i) => i !== index) })}
              >
                <CloseIcon />
              </Button>
            )}
          </div>
        ))}
      </div>
      {choices.length < MC_MAX_CHOICES && (
        <div>
          <Button size="small" onClick={() => change({ choices: [...choices, ''] })}>
            <PlusIcon />
            <FormattedMessage id="ask.addChoice" />
          </Button>
        </div>
      )}
    </fieldset>
  );
}
