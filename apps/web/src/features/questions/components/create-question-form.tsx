import { QUESTION_MAX_LENGTH, type Category, type Question, type QuestionType } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import type { MessageId } from '../../../i18n/i18n-provider';
import { questionTypeLabels } from '../../../lib/question-shape';
import { useDraftErrorText, useQuestionDraft } from '../hooks/use-question-draft';
import { ChoiceEditor } from './choice-editor';
import { NumberBoundsFields, QuestionFilingFields } from './question-draft-fields';

interface CreateQuestionFormProps {
  categories: Category[];
  onCreated: (question: Question) => void;
  onBack: () => void;
}

export function CreateQuestionForm({ categories, onCreated, onBack }: CreateQuestionFormProps) {
  const intl = useIntl();
  const say = (id: MessageId) => intl.formatMessage({ id });
  const fieldError = useDraftErrorText();
  const { draft, errors, serverError, pending, change, submit } = useQuestionDraft(onCreated);

  return (
    <form className="form card" onSubmit={submit} noValidate aria-label={say('ask.form')}>
      <Field label={say('ask.type')}>
        <select
          className="select"
          value={draft.type}
          onChange={(event) => change({ type: event.target.value as QuestionType })}
        >
          {(['MC', 'RS', 'N'] as const).map((type) => (
            <option key={type} value={type}>
              {say(questionTypeLabels[type])}
            </option>
          ))}
        </select>
      </Field>

      <Field
        label={say('ask.question')}
        error={fieldError(errors.question)}
        hint={intl.formatMessage(
          { id: 'ask.questionLength' },
          { length: draft.question.length, max: QUESTION_MAX_LENGTH },
        )}
      >
        <textarea
          className="textarea"
          required
          maxLength={QUESTION_MAX_LENGTH}
          lang={draft.language}
          value={draft.question}
          placeholder={say('ask.questionPlaceholder')}
          onChange={(event) => change({ question: event.target.value })}
        />
      </Field>

      {draft.type === 'MC' && (
        <ChoiceEditor choices={draft.choices} language={draft.language} errors={errors.choices} change={change} />
      )}

      {draft.type === 'RS' && (
        <p className="muted">
          <FormattedMessage id="ask.ratingHint" values={{ min: 1, max: 10 }} />
        </p>
      )}

      {draft.type === 'N' && <NumberBoundsFields draft={draft} errors={errors} change={change} />}

      <QuestionFilingFields draft={draft} errors={errors} change={change} categories={categories} />

      {serverError && <Banner tone="error">{serverError}</Banner>}

      <div className="form-actions">
        <Button type="submit" variant="primary" pending={pending}>
          <FormattedMessage id="ask.publish" />
        </Button>
        <Button variant="ghost" onClick={onBack}>
          <FormattedMessage id="ask.back" />
        </Button>
      </div>
    </form>
  );
}
