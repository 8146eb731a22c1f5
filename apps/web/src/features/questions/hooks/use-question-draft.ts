import type { Question } from '@pollscope/contract';
import { useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { useErrorText } from '../../../hooks/use-error-text';
import { ApiError } from '../../../lib/api-client';
import { useReaderLanguage } from '../../../lib/question-shape';
import { createQuestion } from '../api/create-question';
import {
  draftBody,
  draftErrorIds,
  emptyDraft,
  validateDraft,
  type Draft,
  type DraftErrors,
  type DraftErrorKind,
} from '../question-draft';

/** The words of a field's error in the language on screen, or none. */
export function useDraftErrorText() {
  const intl = useIntl();
  return (kind: DraftErrorKind | undefined) => (kind ? intl.formatMessage({ id: draftErrorIds[kind] }) : undefined);
}

/** The question being written, its errors, and its publishing. */
export function useQuestionDraft(onCreated: (question: Question) => void) {
  const errorText = useErrorText();
  const readerLanguage = useReaderLanguage();
  const [draft, setDraft] = useState<Draft>(() => emptyDraft(readerLanguage));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateDraft(draft);
    setErrors(found);
    setServerError(null);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    const result = await createQuestion(draftBody(draft));
    setPending(false);
    if (result instanceof ApiError) setServerError(errorText(result));
    else onCreated(result.question);
  }

  return { draft, errors, serverError, pending, change, submit };
}

export type DraftChange = (patch: Partial<Draft>) => void;
