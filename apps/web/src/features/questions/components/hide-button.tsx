import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { EyeIcon, EyeOffIcon } from '../../../components/ui/icons';
import { ApiError } from '../../../lib/api-client';
import { setPassed } from '../api/pass-question';

export const HIDE_CONFIRM_MESSAGE = 'Are you sure you want to hide this question?';

interface HideButtonProps {
  questionId: number;
  passed: boolean;
  onChange: (passed: boolean) => void;
}

/** Hides a question after the viewer confirms, or shows a hidden one again. */
export function HideButton({ questionId, passed, onChange }: HideButtonProps) {
  const [pending, setPending] = useState(false);

  async function toggle() {
    if (!passed && !window.confirm(HIDE_CONFIRM_MESSAGE)) return;
    setPending(true);
    const result = await setPassed(questionId, !passed);
    setPending(false);
    if (!(result instanceof ApiError)) onChange(result.passed);
  }

  return (
    <Button variant="ghost" size="small" pending={pending} onClick={() => void toggle()}>
      {passed ? <EyeIcon /> : <EyeOffIcon />}
      {passed ? 'Unhide' : 'Hide'}
    </Button>
  );
}
