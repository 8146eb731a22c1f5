import { MODERATION_REASON_MAX_LENGTH, type ModerationAction, type ReportTarget } from '@pollscope/contract';
import { useState, type FormEvent } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { useTakeAction } from '../api/take-action';
import { actionWords } from '../moderation-words';

export const REASON_REQUIRED = 'Say why: the person is told.';

/** The lengths a suspension may take, ending that many days from now; none: until a moderator lifts it. */
const SUSPENSIONS = [
  { days: 1, label: '1 day' },
  { days: 3, label: '3 days' },
  { days: 7, label: '1 week' },
  { days: 30, label: '30 days' },
  { days: null, label: 'Until a moderator lifts it' },
] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What is acted on: a reported question or person, named as the queue shows it. */
export interface ActionSubject {
  target: ReportTarget;
  id: number;
  name: string;
}

/** What each action does, told before it is taken. */
function consequence(action: ModerationAction, subject: ActionSubject): string {
  const person = subject.target === 'user' ? subject.name : 'its author';
  switch (action) {
    case 'dismiss':
      return `The reports close and nothing else changes${subject.target === 'question' ? '; if reports hid the question, everyone sees it again' : ''}.`;
    case 'remove':
      return 'It goes for everyone but its author, who sees it marked removed with your reason. Its votes stay counted.';
    case 'restore':
      return 'Everyone sees it again where they saw it before.';
    case 'suspend':
      return `${subject.name} is signed out at once and cannot sign in until the suspension ends; their questions and profile are hidden meanwhile.`;
    case 'unsuspend':
      return `${subject.name} can sign in again, and their questions and profile come back.`;
    case 'warn':
      return `Only ${person} is told; nothing else changes.`;
  }
}

function dialogTitle(action: ModerationAction, subject: ActionSubject): string {
  const target = subject.target === 'question' ? 'this question' : subject.name;
  switch (action) {
    case 'dismiss':
      return `Dismiss the reports on ${target}`;
    case 'unsuspend':
      return `Lift ${subject.name}’s suspension`;
    case 'warn':
      return subject.target === 'question' ? 'Warn the author of this question' : `Warn ${subject.name}`;
    default:
      return `${actionWords[action].button} ${target}`;
  }
}

interface ActionDialogProps {
  action: ModerationAction;
  subject: ActionSubject;
  onClose: () => void;
  /** Called once the action is taken. */
  onDone: (action: ModerationAction) => void;
  returnFocus?: HTMLElement | null;
}

/** Asks for the reason (which the person concerned is told) and, for a suspension, how long; then acts. */
export function ActionDialog({ action, subject, onClose, onDone, returnFocus }: ActionDialogProps) {
  const takeAction = useTakeAction();
  const [reason, setReason] = useState('');
  const [days, setDays] = useState<string>('7');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const destructive = action === 'remove' || action === 'suspend';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (reason.trim() === '') {
      setReasonError(REASON_REQUIRED);
      return;
    }
    setPending(true);
    setError(null);
    const until =
      action === 'suspend' && days !== '' ? new Date(Date.now() + Number(days) * DAY_MS).toISOString() : undefined;
    const failed = await takeAction({
      target: subject.target,
      id: subject.id,
      action,
      reason: reason.trim(),
      ...(until && { until }),
    });
    setPending(false);
    if (failed) setError(failed.message);
    else onDone(action);
  }

  return (
    <Dialog
      title={dialogTitle(action, subject)}
      description={consequence(action, subject)}
      onClose={onClose}
      returnFocus={returnFocus}
    >
      <form className="form" onSubmit={submit} noValidate>
        {action === 'suspend' && (
          <Field label="How long">
            <select className="select" value={days} onChange={(event) => setDays(event.target.value)}>
              {SUSPENSIONS.map((suspension) => (
                <option key={suspension.label} value={suspension.days ?? ''}>
                  {suspension.label}
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field
          label="Reason"
          hint={`Told to ${subject.target === 'user' ? subject.name : 'the author'} and kept in the log. ${reason.length} / ${MODERATION_REASON_MAX_LENGTH}`}
          error={reasonError ?? undefined}
        >
          <textarea
            className="textarea"
            rows={3}
            maxLength={MODERATION_REASON_MAX_LENGTH}
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              setReasonError(null);
            }}
          />
        </Field>
        {error && <Banner tone="error">{error}</Banner>}
        <div className="dialog__actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant={destructive ? 'danger' : 'primary'} pending={pending}>
            {actionWords[action].button}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
