import { FormattedMessage } from 'react-intl';
import { Button } from '../../../components/ui/button';
import { CheckIcon, RelateIcon } from '../../../components/ui/icons';
import { RELATE_SELECTION_SIZE, toggleRelateSelection, useRelateSelection } from '../relate-selection';

interface RelateButtonProps {
  questionId: number;
  onPair: (first: number, second: number) => void;
}

/** Picks the question for relate; the second pick opens the comparison. */
export function RelateButton({ questionId, onPair }: RelateButtonProps) {
  const selection = useRelateSelection();
  const selected = selection.includes(questionId);

  function toggle() {
    const next = toggleRelateSelection(questionId);
    if (next.length === RELATE_SELECTION_SIZE) onPair(next[0], next[1]);
  }

  return (
    <Button
      size="small"
      className={selected ? 'relate-button relate-button--selected' : 'relate-button'}
      aria-pressed={selected}
      onClick={toggle}
    >
      {selected ? <CheckIcon /> : <RelateIcon />}
      <FormattedMessage id="questions.relate.button" />
    </Button>
  );
}
