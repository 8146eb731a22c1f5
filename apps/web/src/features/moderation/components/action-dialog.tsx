import { MODERATION_REASON_MAX_LENGTH, type ModerationAction, type ReportTarget } from '@pollscope/contract';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { useErrorText } from '../../../hooks/use-error-text';
import type { MessageId } from '../../../i18n/i18n-provider';
import { useTakeAction } from '../api/take-action';
import { actionButtons } from '../moderation-words';

/** The lengths a suspension may take, ending that many days from now; none: until a moderator lifts it. */
const SUSPENSIONS = [1, 3, 7, 30, null] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What is acted on: a reported question or person, named as the queue shows it. */
export interface ActionSubject {
  target: ReportTarget;
  id: number;
  name: string;
}

/** Each action's dialog: its title, and what the action does, told before it is taken. */
const dialogWords: Record<ModerationAction, { title: MessageId; consequence: MessageId }> = {
  dismiss: { title: 'moderation.dialog.title.dismiss', consequence: 'moderation.dialog.consequence.dismiss' },
  remove: { title: 'moderation.dialog.title.remove', consequence: 'moderation.dialog.consequence.remove' },
  restore: { title: 'moderation.dialog.title.restore', consequence: 'moderation.dialog.consequence.restore' },
  suspend: { title: 'moderation.dialog.title.suspend', consequence: 'moderation.dialog.consequence.suspend' },
  unsuspend: { title: 'moderation.dialog.title.unsuspend', consequence: 'moderation.dialog.consequence.unsuspend' },
  warn: { title: 'moderation.dialog.title.warn', consequence: 'moderation.dialog.consequence.warn' },
};

/** How long a suspension lasts, as the select names it: "3 days", "1 week", "Until a moderator lifts it". */
function suspensionLabel(intl: IntlShape, days: number | null): string {
  if (days === null) return intl.formatMessage({ id: 'moderation.dialog.suspension.untilLifted' });
  return days % 7 === 0
    ? intl.formatMessage({ id: 'moderation.dialog.suspension.weeks' }, { count: days / 7 })
    : intl.formatMessage({ id: 'moderation.dialog.suspension.days' }, { count: days });
}

/** The moment a suspension of `days` days from now ends. */
const daysFromNow = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

/** How long a suspension lasts, in days; the empty value: until a moderator lifts it. */
function SuspensionSelect({ days, onChange }: { days: string; onChange: (days: string) => void }) {
  const intl = useIntl();
  return (
    <Field label={intl.formatMessage({ id: 'moderation.dialog.howLong' })}>
      <select className="select" value={days} onChange={(event) => onChange(event.target.value)}>
        {SUSPENSIONS.map((length) => (
          <option key={length ?? 'lifted'} value={length ?? ''}>
            {suspensionLabel(intl, length)}
          </option>
        ))}
      </select>
    </Field>
  );
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
  const intl = useIntl();
  const takeAction = useTakeAction();
  const errorText = useErrorText();
  const [reason, setReason] = useState('');
  const [days, setDays] = useState<string>('7');
  const [reasonError, setReasonError] = useState<MessageId | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const destructive = action === 'remove' || action === 'suspend';
  const words = { kind: subject.target, name: subject.name };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (reason.trim() === '') {
      setReasonError('moderation.dialog.reasonRequired');
      return;
    }
    setPending(true);
    setError(null);
    const until = action === 'suspend' && days !== '' ? daysFromNow(Number(days)) : undefined;
    const failed = await takeAction({
      target: subject.target,
      id: subject.id,
      action,
      reason: reason.trim(),
      ...(until && { until }),
    });
    setPending(false);
    if (failed) setError(errorText(failed));
    else onDone(action);
  }

  return (
    <Dialog
      title={intl.formatMessage({ id: dialogWords[action].title }, words)}
      description={intl.formatMessage({ id: dialogWords[action].consequence }, words)}
      onClose={onClose}
      returnFocus={returnFocus}
    >
      <form className="form" onSubmit={submit} noValidate>
        {action === 'suspend' && <SuspensionSelect days={days} onChange={setDays} />}
        <Field
          label={intl.formatMessage({ id: 'moderation.dialog.reason' })}
          hint={intl.formatMessage(
            { id: 'moderation.dialog.reasonHint' },
            { ...words, length: reason.length, max: MODERATION_REASON_MAX_LENGTH },
          )}
          error={reasonError ? intl.formatMessage({ id: reasonError }) : undefined}
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
          <Button onClick={onClose}>
            <FormattedMessage id="moderation.dialog.cancel" />
          </Button>
          <Button type="submit" variant={destructive ? 'danger' : 'primary'} pending={pending}>
            <FormattedMessage id={actionButtons[action]} />
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
