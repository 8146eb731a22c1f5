import { useIntl } from 'react-intl';
import { Field } from '../../../components/ui/field';
import { say } from '../../../lib/form-message';
import { accountMessages } from '../form-messages';
import type { PasswordChange, SettingsErrors } from '../hooks/use-settings-form';

interface PasswordChangeFieldsProps {
  values: PasswordChange;
  errors: SettingsErrors;
  change: (name: keyof PasswordChange) => (value: string) => void;
  /** Whether the change asks for the current password: a new email or a new password does. */
  needsCurrentPassword: boolean;
}

/** An optional new password typed twice, then the current password when the sign-in changes. */
export function PasswordChangeFields({ values, errors, change, needsCurrentPassword }: PasswordChangeFieldsProps) {
  const intl = useIntl();
  return (
    <>
      <div className="form-grid">
        <Field
          label={intl.formatMessage({ id: 'account.settings.newPassword' })}
          error={say(intl, errors.password)}
          hint={intl.formatMessage({ id: 'account.settings.newPasswordHint' })}
        >
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={(event) => change('password')(event.target.value)}
          />
        </Field>
        <Field label={intl.formatMessage({ id: 'account.settings.confirmPassword' })} error={say(intl, errors.confirm)}>
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            required={values.password !== ''}
            value={values.confirm}
            onChange={(event) => change('confirm')(event.target.value)}
          />
        </Field>
      </div>
      {needsCurrentPassword && (
        <Field
          label={intl.formatMessage({ id: 'account.settings.currentPassword' })}
          error={say(intl, errors.current_password)}
          hint={say(intl, accountMessages.currentPasswordHint)}
        >
          <input
            className="input"
            type="password"
            autoComplete="current-password"
            required
            value={values.currentPassword}
            onChange={(event) => change('currentPassword')(event.target.value)}
          />
        </Field>
      )}
    </>
  );
}
