import { REPORT_NOTE_MAX_LENGTH, REPORT_REASONS, type ReportReason } from '@pollscope/contract';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { CheckIcon } from '../../../components/ui/icons';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../hooks/use-error-text';
import type { ReportSubject } from '../../../hooks/use-report';
import { ApiError } from '../../../lib/api-client';
import { useCreateReport } from '../api/create-report';
import { reasonLabels, ruleName } from '../community-rules';
import './moderation.css';

interface ReportDialogProps {
  subject: ReportSubject;
  onClose: () => void;
  returnFocus?: HTMLElement | null;
}

/** The thanks once a report is in, with where to follow it; the keyboard goes to its button. */
function ReportSent({
  id,
  words,
  onClose,
}: {
  id: string;
  words: { kind: string; name: string };
  onClose: () => void;
}) {
  const doneRef = useRef<HTMLButtonElement>(null);
  // The form (and the button that sent it) gave way to this confirmation.
  useEffect(() => doneRef.current?.focus(), []);
  return (
    <>
      <div className="report-sent" role="status">
        <span className="report-sent__icon" aria-hidden="true">
          <CheckIcon />
        </span>
        <p id={`${id}-sent`}>
          <FormattedMessage
            id="reports.dialog.sent"
            values={{
              ...words,
              rules: (chunks) => (
                <Link to={paths.rules.getHref()} target="_blank" rel="noopener">
                  {chunks}
                </Link>
              ),
              reports: (chunks) => (
                <Link to={paths.myReports.getHref()} onClick={onClose}>
                  {chunks}
                </Link>
              ),
            }}
          />
        </p>
      </div>
      <div className="dialog__actions">
        <Button ref={doneRef} variant="primary" aria-describedby={`${id}-sent`} onClick={onClose}>
          <FormattedMessage id="reports.dialog.done" />
        </Button>
      </div>
    </>
  );
}

interface ReasonChoiceProps {
  id: string;
  reason: ReportReason | null;
  /** True once the form was sent with no reason chosen. */
  missing: boolean;
  onChoose: (reason: ReportReason) => void;
}

/** The reasons a report can give, each with the community rule it points to. */
function ReasonChoice({ id, reason, missing, onChoose }: ReasonChoiceProps) {
  const intl = useIntl();
  return (
    <fieldset className="fieldset" aria-describedby={missing ? `${id}-reason-error` : undefined}>
      <legend className="fieldset__legend">
        <FormattedMessage id="reports.dialog.reason" />
      </legend>
      <div className="report-reasons">
        {REPORT_REASONS.map((choice) => (
          <label key={choice} className="report-reason">
            <input
              type="radio"
              name={`${id}-reason`}
              id={`${id}-reason-${choice}`}
              value={choice}
              checked={reason === choice}
              // Named by the reason alone; the rule it points to is its description.
              aria-labelledby={`${id}-label-${choice}`}
              aria-describedby={`${id}-rule-${choice}`}
              onChange={() => onChoose(choice)}
            />
            <span className="report-reason__text">
              <span className="report-reason__label" id={`${id}-label-${choice}`}>
                <FormattedMessage id={reasonLabels[choice]} />
              </span>
              <span className="report-reason__rule" id={`${id}-rule-${choice}`}>
                {ruleName(choice, intl)}
              </span>
            </span>
          </label>
        ))}
      </div>
      {missing && (
        <span className="field__error" id={`${id}-reason-error`}>
          <FormattedMessage id="reports.dialog.reasonRequired" />
        </span>
      )}
      <Link to={paths.rules.getHref()} target="_blank" rel="noopener" className="report-rules-link">
        <FormattedMessage id="reports.dialog.rulesLink" />
      </Link>
    </fieldset>
  );
}

/** An optional note for the moderators, with how much room is left. */
function NoteField({ note, onChange }: { note: string; onChange: (note: string) => void }) {
  const intl = useIntl();
  return (
    <Field
      label={intl.formatMessage({ id: 'reports.dialog.note' })}
      hint={intl.formatMessage(
        { id: 'reports.dialog.noteLength' },
        { length: note.length, max: REPORT_NOTE_MAX_LENGTH },
      )}
    >
      <textarea
        className="textarea"
        rows={3}
        maxLength={REPORT_NOTE_MAX_LENGTH}
        value={note}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}

/**
 * Reports a question or a person: a reason, each naming the community rule it points to, and an
 * optional note for the moderators. Says clearly once the report is in, or why it was refused.
 */
export function ReportDialog({ subject, onClose, returnFocus }: ReportDialogProps) {
  const id = useId();
  const intl = useIntl();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [reasonError, setReasonError] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState(false);
  const createReport = useCreateReport();
  const errorText = useErrorText();
  const words = { kind: subject.target, name: subject.name };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason) {
      setReasonError(true);
      document.getElementById(`${id}-reason-${REPORT_REASONS[0]}`)?.focus();
      return;
    }
    setPending(true);
    setError(null);
    const trimmed = note.trim();
    const result = await createReport({
      target: subject.target,
      id: subject.id,
      reason,
      ...(trimmed && { note: trimmed }),
    });
    setPending(false);
    if (result instanceof ApiError) setError(errorText(result));
    else setSent(true);
  }

  return (
    <Dialog
      title={intl.formatMessage({ id: sent ? 'reports.dialog.thanks' : 'reports.dialog.title' }, words)}
      description={sent ? undefined : intl.formatMessage({ id: 'reports.dialog.description' }, words)}
      onClose={onClose}
      returnFocus={returnFocus}
    >
      {sent ? (
        <ReportSent id={id} words={words} onClose={onClose} />
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          <ReasonChoice
            id={id}
            reason={reason}
            missing={reasonError}
            onChoose={(choice) => {
              setReason(choice);
              setReasonError(false);
            }}
          />
          <NoteField note={note} onChange={setNote} />
          {error && <Banner tone="error">{error}</Banner>}
          <div className="dialog__actions">
            <Button onClick={onClose}>
              <FormattedMessage id="reports.dialog.cancel" />
            </Button>
            <Button type="submit" variant="primary" pending={pending}>
              <FormattedMessage id="reports.dialog.send" />
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
