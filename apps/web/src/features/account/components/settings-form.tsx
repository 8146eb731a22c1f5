import type { Settings } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { MessageSlot } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { say } from '../../../lib/form-message';
import { useSettingsForm } from '../hooks/use-settings-form';
import { PasswordChangeFields } from './password-change-fields';
import { QuestionLanguagesFieldset } from './question-languages-fieldset';
import { InterfaceLanguageField, NotificationChoice, PendingEmailBanner } from './settings-fields';

/**
 * Email, notifications, the language of the interface, the languages of questions and an
 * optional new password; a new email waits for the link mailed to it. The language switches the
 * app at once and is kept on the account at once, as the switcher at the foot of every screen
 * does; the rest waits for Save.
 */
export function SettingsForm({ initial }: { initial: Settings }) {
  const intl = useIntl();
  const form = useSettingsForm(initial);
  const { saved, errors, message } = form;
  return (
    <form
      className="form card"
      onSubmit={form.submit}
      noValidate
      aria-label={intl.formatMessage({ id: 'account.settings.form' })}
    >
      <Field label={intl.formatMessage({ id: 'account.settings.email' })} error={say(intl, errors.email)}>
        <input
          className="input"
          type="email"
          autoComplete="email"
          required
          value={form.email}
          onChange={(event) => form.setEmail(event.target.value)}
        />
      </Field>
      {saved.pending_email && <PendingEmailBanner saved={saved} />}
      <NotificationChoice value={form.notification} onChange={form.setNotification} />
      <InterfaceLanguageField
        language={form.interfaceLanguage.language}
        error={say(intl, errors.language)}
        onChoose={(language) => void form.interfaceLanguage.choose(language)}
      />
      <QuestionLanguagesFieldset languages={form.questionLanguages} error={say(intl, errors.question_languages)} />
      <PasswordChangeFields
        values={form.passwords}
        errors={errors}
        change={form.changePassword}
        needsCurrentPassword={form.needsCurrentPassword}
      />
      <MessageSlot message={message?.tone === 'error' ? message.text : null} tone="error" />
      <MessageSlot message={message?.tone === 'success' ? message.text : null} tone="success" />
      <div className="form-actions">
        <Button type="submit" variant="primary" pending={form.pending}>
          <FormattedMessage id="account.settings.save" />
        </Button>
      </div>
    </form>
  );
}
