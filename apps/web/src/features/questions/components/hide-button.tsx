import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../../../components/ui/button';
import { EyeIcon, EyeOffIcon } from '../../../components/ui/icons';
import { ApiError } from '../../../lib/api-client';
import { setPassed } from '../api/pass-question';

interface HideButtonProps {
  questionId: number;
  passed: boolean;
  onChange: (passed: boolean) => void;
}

/** Hides a question after the viewer confirms, or shows a hidden one again. */
export function HideButton({ questionId, passed, onChange }: HideButtonProps) {
  const intl = useIntl();
  const [pending, setPending] = useState(false);

  async function toggle() {
    if (!passed && !window.confirm(intl.formatMessage({ id: 'questions.hide.confirm' }))) return;
    setPending(true);
    const result = await setPassed(questionId, !passed);
    setPending(false);
    if (!(result instanceof ApiError)) onChange(result.passed);
  }

  return (
    <Button variant="ghost" size="small" pending={pending} onClick={() => void toggle()}>
      {passed ? <EyeIcon /> : <EyeOffIcon />}
      {passed ? <FormattedMessage id="questions.hide.unhide" /> : <FormattedMessage id="questions.hide.hide" />}
    </Button>
  );
}
