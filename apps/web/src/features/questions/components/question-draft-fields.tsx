import { TAG_MAX_LENGTH, type Category } from '@pollscope/contract';
import { useIntl } from 'react-intl';
import { Field } from '../../../components/ui/field';
import { NamedSelect } from '../../../components/ui/named-select';
import { useNamedCategories, useQuestionLanguages } from '../../../lib/question-shape';
import { useDraftErrorText, type DraftChange } from '../hooks/use-question-draft';
import type { Draft, DraftErrors } from '../question-draft';

interface DraftFieldsProps {
  draft: Draft;
  errors: DraftErrors;
  change: DraftChange;
}

const boundLabels = { min: 'ask.minimum', max: 'ask.maximum' } as const;

/** The lowest and highest number a numeric question takes. */
export function NumberBoundsFields({ draft, errors, change }: DraftFieldsProps) {
  const intl = useIntl();
  const fieldError = useDraftErrorText();
  return (
    <div className="form-grid">
      {(['min', 'max'] as const).map((bound) => (
        <Field key={bound} label={intl.formatMessage({ id: boundLabels[bound] })} error={fieldError(errors[bound])}>
          <input
            className="input"
            type="number"
            step={1}
            required
            value={draft[bound]}
            onChange={(event) => change({ [bound]: event.target.value })}
          />
        </Field>
      ))}
    </div>
  );
}

/** Where the question is filed: its tag, its category and the language it is written in. */
export function QuestionFilingFields({
  draft,
  errors,
  change,
  categories,
}: DraftFieldsProps & { categories: Category[] }) {
  const intl = useIntl();
  const fieldError = useDraftErrorText();
  const namedCategories = useNamedCategories(categories);
  return (
    <div className="form-grid">
      <Field
        label={intl.formatMessage({ id: 'ask.tag' })}
        error={fieldError(errors.tag)}
        hint={intl.formatMessage({ id: 'ask.tagHint' }, { max: TAG_MAX_LENGTH })}
      >
        <input
          className="input"
          maxLength={TAG_MAX_LENGTH}
          value={draft.tag}
          placeholder={intl.formatMessage({ id: 'ask.tagPlaceholder' })}
          onChange={(event) => change({ tag: event.target.value })}
        />
      </Field>
      <Field label={intl.formatMessage({ id: 'ask.category' })}>
        <NamedSelect
          value={draft.category}
          onChange={(category) => change({ category })}
          placeholder={intl.formatMessage({ id: 'ask.noCategory' })}
          options={namedCategories}
        />
      </Field>
      <Field label={intl.formatMessage({ id: 'ask.language' })}>
        <select
          className="select"
          value={draft.language}
          onChange={(event) => change({ language: event.target.value })}
        >
          <QuestionLanguageOptions />
        </select>
      </Field>
    </div>
  );
}

const languageGroupLabels = { common: 'ask.languages.common', other: 'ask.languages.other' } as const;

/** The languages a question can be written in: the common ones first, then the others. */
function QuestionLanguageOptions() {
  const intl = useIntl();
  const languages = useQuestionLanguages();
  return (['common', 'other'] as const).map((group) => (
    <optgroup key={group} label={intl.formatMessage({ id: languageGroupLabels[group] })}>
      {languages[group].map(({ code, name }) => (
        <option key={code} value={code}>
          {name}
        </option>
      ))}
    </optgroup>
  ));
}
